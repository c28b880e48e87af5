import Fingerprints
import Foundation
import Testing
import Catalog
import CatalogStores
import CatalogTestSupport

/// The behaviour every ``EntityStore`` must have, run against each store kind (SQLite
/// always; PostgreSQL on the throwaway cluster of `scripts/pg-test-cluster.sh`).
@Suite struct StoreConformanceTests {
    func indexedStore(_ kind: StoreKind, _ source: some CatalogSource) async throws -> (any EntityStore, IndexReport) {
        let store = try await TestCatalog.make(kind).open()
        let report = try await CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter()).index(source)
        return (store, report)
    }

    @Test(arguments: StoreKind.available) func indexingAManifestStoresEntitiesAndDerivedValues(_ kind: StoreKind) async throws {
        let (store, report) = try await indexedStore(kind, ManifestCatalogSource(manifestPath: Fixtures.manifest))
        #expect(report.added.count == 3 && report.failed.isEmpty && report.fingerprinted == 3)
        #expect(report.version.generation == 1)
        let eiffel = try #require(try await store.landmark(id: "eiffel-tower"))
        #expect(eiffel.keywords == ["tower", "paris", "iron"] && eiffel.location?.latitude == 48.8584)
        #expect(eiffel.referenceImages.first?.fingerprint?.views.count == 3)
        #expect(try await store.collections(containing: "eiffel-tower").map(\.id) == ["europe", "towers"])
        let europe = try #require(try await store.collection(id: "europe"))
        #expect(europe.landmarkIDs == ["eiffel-tower", "europe/colosseum"] && europe.landmarkCount == 2)
        #expect(europe.displayRepresentation.thumbnailPath == eiffel.referenceImages[0].path)
        #expect(try await store.fingerprintSnapshot().entries.map(\.landmarkID) == ["eiffel-tower", "europe/colosseum", "great-wall"])
    }

    @Test(arguments: StoreKind.available) func collectionsHoldingManyLandmarksAreReadAtOnceAsOneByOne(_ kind: StoreKind) async throws {
        let (store, _) = try await indexedStore(kind, ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let asked = ["great-wall", "eiffel-tower", "nope", "europe/colosseum", "eiffel-tower"]
        let holding = try await store.collections(containingEach: asked)
        #expect(Set(holding.keys) == Set(asked), "every id asked is a key, unknown ones too")
        for id in asked {
            #expect(holding[id]?.map(\.id) == (try await store.collections(containing: id)).map(\.id), "\(id)")
        }
        #expect(holding["eiffel-tower"]?.map(\.id) == ["europe", "towers"] && holding["nope"] == [])
        #expect(try await store.collections(containingEach: []).isEmpty)
        // A removed collection and a removed landmark are in no answer.
        try await store.remove(EntityReference(kind: .collection, id: "towers"))
        try await store.remove(EntityReference(kind: .landmark, id: "europe/colosseum"))
        let after = try await store.collections(containingEach: asked)
        #expect(after["eiffel-tower"]?.map(\.id) == ["europe"] && after["europe/colosseum"] == [])
        #expect(after["eiffel-tower"]?.first?.landmarkIDs == ["eiffel-tower"], "a collection's removed member is not listed")
    }

    @Test(arguments: StoreKind.available) func aFingerprintStreamGivesTheSnapshotsEntriesOnEveryPass(_ kind: StoreKind) async throws {
        let (store, _) = try await indexedStore(kind, ManifestCatalogSource(manifestPath: Fixtures.manifest))
        try await store.remove(EntityReference(kind: .landmark, id: "great-wall"))
        let snapshot = try await store.fingerprintSnapshot()
        let passes = try await store.withFingerprintStream { stream in
            var passes: [[FingerprintSnapshot.Entry]] = []
            for _ in 0..<2 {
                var entries: [FingerprintSnapshot.Entry] = []
                try stream.forEach { entries.append($0) }
                passes.append(entries)
            }
            #expect(stream.version == snapshot.version)
            return passes
        }
        #expect(passes == [snapshot.entries, snapshot.entries])
        #expect(snapshot.entries.map(\.landmarkID) == ["eiffel-tower", "europe/colosseum"])
    }

    @Test(arguments: StoreKind.available) func entitiesForIdsSkipsUnknownIdsAndKeepsOrder(_ kind: StoreKind) async throws {
        let (store, _) = try await indexedStore(kind, ManifestCatalogSource(manifestPath: Fixtures.manifest))
        #expect(try await store.landmarks(ids: ["great-wall", "atlantis", "eiffel-tower", "great-wall"]).map(\.id) == ["great-wall", "eiffel-tower"])
        #expect(try await store.collections(ids: ["nope", "towers"]).map(\.id) == ["towers"])
        #expect(try await store.landmark(id: "atlantis") == nil)
    }

    @Test(arguments: StoreKind.available) func reindexingSkipsUnchangedFilesWithoutDecoding(_ kind: StoreKind) async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try await TestCatalog.make(kind).open()
        let fingerprinter = SyntheticFingerprinter()
        let indexer = CatalogIndexer(store: store, fingerprinter: fingerprinter)
        let first = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(first.added.count == 5 && fingerprinter.callCount == 5)

        let second = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(second.unchanged.count == 5 && second.added.isEmpty && second.updated.isEmpty)
        #expect(fingerprinter.callCount == 5, "unchanged files must not be fingerprinted again")
        #expect(second.version == first.version, "a run that changes nothing keeps the generation")

        // Touched but identical content: hashed, not fingerprinted, still unchanged.
        let colosseum = folder.appendingPathComponent("europe/colosseum.png")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: colosseum.path)
        // Really changed content.
        let eiffel = folder.appendingPathComponent("europe/paris/eiffel.jpg")
        var bytes = try Data(contentsOf: eiffel)
        bytes.append(contentsOf: [0, 1, 2, 3])
        try bytes.write(to: eiffel)
        let third = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(third.updated == [eiffel.path])
        #expect(third.unchanged.count == 4)
        #expect(third.fingerprinted == 1 && fingerprinter.callCount == 6)
        #expect(third.version.generation == first.version.generation + 1)
    }

    @Test(arguments: StoreKind.available) func fingerprintsOfAnOlderLayoutVersionAreRecomputedAndReportedAsUpdated(_ kind: StoreKind) async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try await TestCatalog.make(kind).open()
        let old = SyntheticFingerprinter(layoutVersion: 1)
        let first = try await CatalogIndexer(store: store, fingerprinter: old).index(FolderCatalogSource(folderPath: folder.path))
        #expect(first.added.count == 5 && old.callCount == 5)
        #expect(try await store.fingerprintSnapshot().entries.allSatisfy { $0.fingerprints.allSatisfy { $0.layoutVersion == 1 } })

        // A newer layout: every file is read again, fingerprinted, and reported as updated.
        let new = SyntheticFingerprinter(layoutVersion: 2)
        let second = try await CatalogIndexer(store: store, fingerprinter: new).index(FolderCatalogSource(folderPath: folder.path))
        #expect(second.updated.count == 5 && second.unchanged.isEmpty && second.added.isEmpty)
        #expect(second.fingerprinted == 5 && new.callCount == 5)
        #expect(second.version.generation == first.version.generation + 1, "readers must rebuild their index")
        let changes = try await store.changes(since: first.version.generation)
        #expect(changes.isComplete && changes.landmarkIDs.count == 5 && changes.fingerprints.count == 5)
        #expect(try await store.fingerprintSnapshot().entries.allSatisfy { $0.fingerprints.allSatisfy { $0.layoutVersion == 2 } })

        // Same version again: nothing is fingerprinted.
        let third = try await CatalogIndexer(store: store, fingerprinter: new).index(FolderCatalogSource(folderPath: folder.path))
        #expect(third.unchanged.count == 5 && third.updated.isEmpty && new.callCount == 5)
        #expect(third.version == second.version)
    }

    @Test(arguments: StoreKind.available) func aFailingFileIsReportedAndTheOthersAreIndexed(_ kind: StoreKind) async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let broken = folder.appendingPathComponent("asia/broken.jpg")
        try Data([0xFF, 0xD8, 0xFF] + Array("CORRUPT".utf8)).write(to: broken)
        let store = try await TestCatalog.make(kind).open()
        let report = try await CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter()).index(FolderCatalogSource(folderPath: folder.path))
        #expect(report.failed == [IndexReport.Failure(path: broken.path, reason: "corrupt image data")])
        #expect(report.added.count == 5)
        #expect(try await store.fingerprintSnapshot().entries.count == 5)
        // The landmark exists (it is in the source) but has nothing to match with.
        #expect(try await store.landmark(id: "asia/broken")?.referenceImages.first?.fingerprint == nil)
    }

    @Test(arguments: StoreKind.available) func removingIsASoftDeleteThatUndoRestores(_ kind: StoreKind) async throws {
        let (store, _) = try await indexedStore(kind, ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let before = try await store.catalogVersion()
        let removal = try await store.remove(EntityReference(kind: .landmark, id: "eiffel-tower"))
        #expect(removal.entities == [EntityReference(kind: .landmark, id: "eiffel-tower")] && removal.reason == .removedByUser)
        #expect(try await store.landmark(id: "eiffel-tower") == nil)
        #expect(try await store.collection(id: "europe")?.landmarkIDs == ["europe/colosseum"])
        #expect(try await !store.fingerprintSnapshot().entries.map(\.landmarkID).contains("eiffel-tower"))
        #expect(try await store.catalogVersion().generation == before.generation + 1)
        try await store.remove(EntityReference(kind: .collection, id: "towers"))
        #expect(try await store.collection(id: "towers") == nil)

        await #expect(throws: CatalogStoreError.unknownEntity(EntityReference(kind: .landmark, id: "eiffel-tower"))) {
            try await store.remove(EntityReference(kind: .landmark, id: "eiffel-tower"))
        }

        #expect(try await store.undoLastRemoval()?.entities == [EntityReference(kind: .collection, id: "towers")])
        #expect(try await store.collection(id: "towers")?.landmarkIDs == [])
        #expect(try await store.undoLastRemoval()?.entities == [EntityReference(kind: .landmark, id: "eiffel-tower")])
        let eiffel = try #require(try await store.landmark(id: "eiffel-tower"))
        #expect(eiffel.referenceImages.first?.fingerprint != nil)
        #expect(try await store.collection(id: "towers")?.landmarkIDs == ["eiffel-tower"])
        #expect(try await store.undoLastRemoval() == nil)
        #expect(try await store.removals().allSatisfy(\.isUndone))
    }

    @Test(arguments: StoreKind.available) func everyRuleDrivenChangeAdvancesTheGenerationOnceAndLogsWhatItTouched(_ kind: StoreKind) async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try await TestCatalog.make(kind).open()
        let indexer = CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter())
        _ = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        func step(_ change: () async throws -> Void) async throws -> (generations: Int64, landmarks: [String], collections: [String]) {
            let before = try await store.catalogVersion().generation
            try await change()
            let changes = try await store.changes(since: before)
            return (changes.version.generation - before, changes.landmarkIDs.sorted(), changes.collectionIDs.sorted())
        }
        // An archive: one generation, the entity logged.
        let archived = try await step { try await store.remove(EntityReference(kind: .collection, id: "asia"), reason: .archivedByUser) }
        #expect(archived.generations == 1 && archived.landmarks.isEmpty && archived.collections == ["asia"])
        // An index run whose source lost a folder: one generation, what went logged.
        let parked = folder.deletingLastPathComponent().appendingPathComponent("parked-rules")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("europe/paris"), to: parked)
        let gone = try await step { _ = try await indexer.index(FolderCatalogSource(folderPath: folder.path)) }
        #expect(gone.generations == 1 && gone.landmarks == ["europe/paris/eiffel"] && gone.collections.contains("europe/paris"), "\(gone)")
        // Undo takes back the newest removal (the index run's), not the person's archive.
        let undone = try await step {
            let reason = try await store.undoLastRemoval()?.reason
            #expect(reason == .missingFromSource)
        }
        #expect(undone.generations == 1 && undone.landmarks == ["europe/paris/eiffel"] && undone.collections == ["europe/paris"])
        #expect(try await store.landmark(id: "europe/paris/eiffel") != nil)
        #expect(try await store.collection(id: "asia") == nil, "the archive stands")
        // A refused removal changes nothing.
        let refused = try await step {
            await #expect(throws: CatalogStoreError.unknownEntity(EntityReference(kind: .collection, id: "asia"))) {
                try await store.remove(EntityReference(kind: .collection, id: "asia"), reason: .removedByUser)
            }
        }
        #expect(refused.generations == 0 && refused.landmarks.isEmpty && refused.collections.isEmpty)
    }

    @Test(arguments: StoreKind.available) func userRemovalSurvivesReindexing(_ kind: StoreKind) async throws {
        let store = try await TestCatalog.make(kind).open()
        let indexer = CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter())
        _ = try await indexer.index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        try await store.remove(EntityReference(kind: .landmark, id: "great-wall"))
        _ = try await indexer.index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        #expect(try await store.landmark(id: "great-wall") == nil)
        try await store.undoLastRemoval()
        #expect(try await store.landmark(id: "great-wall") != nil)
    }

    @Test(arguments: StoreKind.available) func filesGoneFromTheSourceAreSoftDeletedAndComeBack(_ kind: StoreKind) async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try await TestCatalog.make(kind).open()
        let indexer = CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter())
        _ = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        let parked = folder.deletingLastPathComponent().appendingPathComponent("parked")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("europe/paris"), to: parked)
        let report = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(report.removedLandmarks == ["europe/paris/eiffel"] && report.removedCollections == ["europe/paris"])
        #expect(try await store.landmark(id: "europe/paris/eiffel") == nil)
        #expect(try await store.removals().first?.reason == .missingFromSource)

        try FileManager.default.moveItem(at: parked, to: folder.appendingPathComponent("europe/paris"))
        let back = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(Set(back.restored) == [EntityReference(kind: .landmark, id: "europe/paris/eiffel"), EntityReference(kind: .collection, id: "europe/paris")])
        #expect(back.unchanged.count == 5, "the restored image's fingerprint was kept")
        #expect(try await store.landmark(id: "europe/paris/eiffel") != nil)
    }

    @Test(arguments: StoreKind.available) func anAddRunKeepsWhatItsSourceDoesNotNameAndWritesOnlyItsOwnEntities(_ kind: StoreKind) async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try await TestCatalog.make(kind).open()
        let indexer = CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter())
        _ = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        let before = try await store.catalogVersion()
        let landmarksBefore = try await store.allLandmarks().map(\.id)
        // A second folder: one image into an existing collection's folder, one new at the top.
        let more = folder.deletingLastPathComponent().appendingPathComponent("more-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: more.appendingPathComponent("europe/paris"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("europe/colosseum.png"), to: more.appendingPathComponent("europe/paris/louvre.png"))
        try FileManager.default.copyItem(at: folder.appendingPathComponent("asia/great-wall.jpg"), to: more.appendingPathComponent("new-arrival.jpg"))

        let report = try await indexer.index(FolderCatalogSource(folderPath: more.path), mode: .add)
        #expect(report.added.count == 2 && report.removedLandmarks.isEmpty && report.removedCollections.isEmpty, "\(report)")
        #expect(report.version.generation == before.generation + 1)
        #expect(Set(try await store.allLandmarks().map(\.id)) == Set(landmarksBefore + ["europe/paris/louvre", "new-arrival"]))
        #expect(try await store.collection(id: "europe/paris")?.landmarkIDs == ["europe/paris/eiffel", "europe/paris/louvre"],
                "the collection keeps its member and gains the source's")
        #expect(try await store.collection(id: "asia") != nil)
        #expect(try await store.collection(id: "europe") != nil)
        let changes = try await store.changes(since: before.generation)
        #expect(changes.landmarkIDs.sorted() == ["europe/paris/louvre", "new-arrival"] && changes.collectionIDs == ["europe/paris"], "\(changes)")
        #expect(try await store.removals().isEmpty)

        // The same add again changes nothing; a replace run of the first folder removes what it does not name.
        let again = try await indexer.index(FolderCatalogSource(folderPath: more.path), mode: .add)
        #expect(again.version == report.version && again.unchanged.count == 2)
        // An add run naming a landmark the catalog holds with other files is refused before
        // anything is written.
        let clash = folder.deletingLastPathComponent().appendingPathComponent("clash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: clash, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("europe/colosseum.png"), to: clash.appendingPathComponent("top-level.png"))
        do {
            _ = try await indexer.index(FolderCatalogSource(folderPath: clash.path), mode: .add)
            Issue.record("an add run replaced another source's landmark")
        } catch {
            guard case .source(.invalid(_, let issues)) = error, case .idTakenByOtherImages(_, "top-level", let existing)? = issues.first else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(existing == [folder.appendingPathComponent("top-level.png").path] && error.description.contains("top-level.png"), "\(error)")
        }
        #expect(try await store.catalogVersion() == report.version)
        let replaced = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(replaced.removedLandmarks == ["europe/paris/louvre", "new-arrival"])
    }

    @Test(arguments: StoreKind.available) func indexingStoppedHalfwayThroughTheWriteLeavesThePreviousCatalogIntact(_ kind: StoreKind) async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let catalog = try await TestCatalog.make(kind, folder: folder.deletingLastPathComponent())
        let store = try await catalog.open()
        let fingerprinter = SyntheticFingerprinter()
        let indexer = CatalogIndexer(store: store, fingerprinter: fingerprinter)
        _ = try await indexer.index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let version = try await store.catalogVersion()
        let landmarks = try await store.allLandmarks()
        let collections = try await store.allCollections()

        struct Crash: Error {}
        do {
            _ = try await indexer.index(FolderCatalogSource(folderPath: folder.path)) { progress in
                if progress.phase == .writing && progress.completed == 3 { throw Crash() }
            }
            Issue.record("the run should have stopped")
        } catch .stoppedByCaller {
        } catch {
            Issue.record("unexpected error \(error)")
        }
        // Reopen from disk, as a new process would after kill -9.
        let reopened = try await catalog.open()
        #expect(try await reopened.catalogVersion() == version)
        #expect(try await reopened.allLandmarks() == landmarks)
        #expect(try await reopened.allCollections() == collections)

        // Re-running finishes the job, reusing the fingerprints computed before the stop.
        let calls = fingerprinter.callCount
        let report = try await CatalogIndexer(store: reopened, fingerprinter: fingerprinter).index(FolderCatalogSource(folderPath: folder.path))
        #expect(report.fingerprinted == 0 && fingerprinter.callCount == calls)
        #expect(report.added.count == 5)
        #expect(try await reopened.allLandmarks().map(\.id) == ["asia/great-wall", "asia/mislabelled", "europe/colosseum", "europe/paris/eiffel", "top-level"])
        #expect(try await reopened.catalogVersion().generation == version.generation + 1)
    }

    @Test(arguments: StoreKind.available) func cancellationLeavesThePreviousCatalogIntact(_ kind: StoreKind) async throws {
        let store = try await TestCatalog.make(kind).open()
        let indexer = CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter())
        let task = Task { () -> Result<IndexReport, CatalogIndexError> in
            withUnsafeCurrentTask { $0?.cancel() }
            do throws(CatalogIndexError) { return .success(try await indexer.index(ManifestCatalogSource(manifestPath: Fixtures.manifest))) } catch { return .failure(error) }
        }
        let result = await task.value
        guard case .failure(CatalogIndexError.cancelled) = result else {
            Issue.record("expected cancellation, got \(result)")
            return
        }
        #expect(try await store.allLandmarks().isEmpty)
        #expect(try await store.catalogVersion().generation == 0)
    }

    @Test(arguments: StoreKind.available) func imageStatisticsAreComputedOnDemand(_ kind: StoreKind) async throws {
        let (store, _) = try await indexedStore(kind, ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let eiffel = try #require(try await store.landmark(id: "eiffel-tower"))
        let statistics = await eiffel.imageStatistics
        #expect(statistics.images.count == 1 && statistics.isSearchable)
        #expect(statistics.images[0].fileSize == 815 && statistics.images[0].viewCount == 3 && statistics.images[0].meanQuality == 80)
        #expect(statistics.images[0].dominantColorBins.count == 3)
    }
    /// `testdata/low-information`: five images a search cannot find and one it can.
    static let lowInformation = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/low-information")

    @Test(arguments: StoreKind.available) func exactCopiesAreFoundByContentHashOrFrameDigestAndUnsearchableImagesCounted(_ kind: StoreKind) async throws {
        let store = try await TestCatalog.make(kind).open()
        let report = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(FolderCatalogSource(folderPath: Self.lowInformation.path))
        #expect(report.added.count == 6 && report.unsearchable.count == 5)
        let gravel = try Data(contentsOf: Self.lowInformation.appendingPathComponent("gravel.png"))
        #expect(try await store.landmarkIDs(copying: CopyKey(contentHash: ContentHash(of: gravel))) == ["gravel"])
        let blue = try ImageFingerprinter.catalog.fingerprint(file: Self.lowInformation.appendingPathComponent("flat-blue.png").path)
        let byPixels = CopyKey(contentHash: ContentHash(of: Data("other bytes".utf8)), frameDigest: FrameDigest(of: blue))
        #expect(try await store.landmarkIDs(copying: byPixels) == ["flat-blue"])
        #expect(try await store.landmarkIDs(copying: CopyKey(contentHash: ContentHash(of: Data("nothing".utf8)))) == [])
        // The file's own bytes win over other images of the same pixels.
        let blueBytes = try Data(contentsOf: Self.lowInformation.appendingPathComponent("flat-blue.png"))
        let green = try ImageFingerprinter.catalog.fingerprint(file: Self.lowInformation.appendingPathComponent("flat-green.png").path)
        #expect(try await store.landmarkIDs(copying: CopyKey(contentHash: ContentHash(of: blueBytes), frameDigest: FrameDigest(of: green))) == ["flat-blue"])
        let minimum = FingerprintView.minimumSearchableQuality
        #expect(try await store.unsearchableCounts(minimumViewQuality: minimum) == UnsearchableCounts(images: 5, landmarks: 5))
        try await store.remove(EntityReference(kind: .landmark, id: "gravel"))
        #expect(try await store.landmarkIDs(copying: CopyKey(contentHash: ContentHash(of: gravel))) == [])
        #expect(try await store.unsearchableCounts(minimumViewQuality: minimum) == UnsearchableCounts(images: 4, landmarks: 4))
        // A re-run knows which unchanged images are unsearchable without decoding them.
        let again = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(FolderCatalogSource(folderPath: Self.lowInformation.path))
        #expect(again.fingerprinted == 0 && again.unsearchable == report.unsearchable)
    }

    @Test(arguments: StoreKind.available) func aLandmarkWithOneSearchableImageIsNotUnsearchableButItsFlatImagesAreCounted(_ kind: StoreKind) async throws {
        // "mixed": gravel (flat) and bands (searchable); "flat": sand and flat-blue; the
        // same gravel file in a second landmark counts once per live image.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-unsearchable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["gravel", "bands", "sand", "flat-blue"] {
            try FileManager.default.copyItem(at: Self.lowInformation.appendingPathComponent(name + ".png"), to: folder.appendingPathComponent(name + ".png"))
        }
        let manifest = #"{"version": 1, "landmarks": ["#
            + #"{"id": "mixed", "name": "Mixed", "images": ["gravel.png", "bands.png"]},"#
            + #"{"id": "flat", "name": "Flat", "images": ["sand.png", "flat-blue.png"]},"#
            + #"{"id": "gravel-again", "name": "Gravel again", "images": ["gravel.png"]}]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        let store = try await TestCatalog.make(kind).open()
        _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(ManifestCatalogSource(manifestPath: folder.appendingPathComponent("manifest.json").path))
        let minimum = FingerprintView.minimumSearchableQuality
        #expect(try await store.unsearchableCounts(minimumViewQuality: minimum) == UnsearchableCounts(images: 4, landmarks: 2))
        try await store.remove(EntityReference(kind: .landmark, id: "flat"))
        #expect(try await store.unsearchableCounts(minimumViewQuality: minimum) == UnsearchableCounts(images: 2, landmarks: 1))
        try await store.undoLastRemoval()
        #expect(try await store.unsearchableCounts(minimumViewQuality: minimum) == UnsearchableCounts(images: 4, landmarks: 2))
    }
}

/// A reader learns of a change made through another store on the same catalog: pushed on
/// PostgreSQL (long before its 60 s poll would have found it), polled on SQLite. A watcher
/// that never reports fails the run instead of hanging it (one hung once in a loaded run);
/// the limit is generous because the PostgreSQL case ran out of 2 minutes in a clean-clone
/// run beside a catalog build on 2 cores, load 4-5 (where the time went was not found; the
/// push itself stays timed, below).
@Suite(.timeLimit(.minutes(5))) struct CatalogChangeWatcherTests {
    @Test(arguments: StoreKind.available) func aRemovalThroughOneStoreReachesAWatcherOfAnotherByPushOrPoll(_ kind: StoreKind) async throws {
        let catalog = try await TestCatalog.make(kind)
        let writer = try await catalog.open()
        _ = try await CatalogIndexer(store: writer, fingerprinter: SyntheticFingerprinter()).index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let reader = try await catalog.open(.readOnly)
        let poll: Duration = kind == .postgres ? .seconds(60) : .milliseconds(200)
        let (versions, continuation) = AsyncStream.makeStream(of: CatalogVersion.self)
        // Watching from the version before the first change: that change is reported even if
        // it lands before the watcher listens (push or the check made when LISTEN starts).
        let initial = try await reader.catalogVersion()
        let watching = Task { await CatalogChangeWatcher(store: reader, pollInterval: poll).run(startingFrom: initial) { continuation.yield($0) } }
        defer { watching.cancel() }
        var iterator = versions.makeAsyncIterator()
        // A first change, seen without a time limit, proves the watcher is listening (on a
        // loaded machine setting up LISTEN can take seconds); then the timed one.
        try await writer.remove(EntityReference(kind: .landmark, id: "eiffel-tower"))
        _ = await iterator.next()
        let before = try await reader.catalogVersion()
        let started = ContinuousClock.now
        try await writer.remove(EntityReference(kind: .landmark, id: "great-wall"))
        let seen = await iterator.next()
        let elapsed = ContinuousClock.now - started
        #expect(seen?.generation == before.generation + 1)
        // Pushed on PostgreSQL: long before the 60 s poll could have found it (how fast a
        // replica answers a change is measured by scripts/cluster-demo.sh, not by a timed test
        // among hundreds running in parallel). Polled every 0.2 s on SQLite: the poll is the
        // mechanism under test, so the bound is generous (6.7 s was seen in a clean-clone CI
        // run with every suite in parallel on 2 loaded cores).
        #expect(elapsed < (kind == .postgres ? poll / 4 : .seconds(30)), "\(elapsed)")
        let changes = try await reader.changes(since: before.generation)
        #expect(changes.landmarkIDs == ["great-wall"] && changes.fingerprints.isEmpty)
    }
}
