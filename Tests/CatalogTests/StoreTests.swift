import Foundation
import GRDB
import Testing
@testable import Catalog

@Suite struct StoreTests {
    func indexedStore(_ source: some CatalogSource) async throws -> (SQLiteEntityStore, IndexReport) {
        let store = try SQLiteEntityStore()
        let report = try await CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter()).index(source)
        return (store, report)
    }

    @Test func freshStoreHasEveryMigrationApplied() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-store-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("catalog.sqlite").path
        let store = try SQLiteEntityStore(path: path)
        let applied = try store.database.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
        #expect(applied == CatalogSchema.migrationNames)
        let journal = try store.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
        // Reopening is idempotent and keeps the catalog identity.
        let version = try store.catalogVersion()
        #expect(try SQLiteEntityStore(path: path).catalogVersion() == version)
    }

    @Test func olderSchemaIsMigratedKeepingItsData() throws {
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue, upTo: "v1-catalog")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO landmark (id, name, position) VALUES ('old', 'Old landmark', 0)")
            #expect(try !db.tableExists("index_run"))
        }
        let store = try SQLiteEntityStore(database: queue, path: "v1")
        #expect(try store.landmark(id: "old")?.name == "Old landmark")
        #expect(try queue.read { try $0.tableExists("index_run") })
    }

    @Test func indexingAManifestStoresEntitiesAndDerivedValues() async throws {
        let (store, report) = try await indexedStore(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        #expect(report.added.count == 3 && report.failed.isEmpty && report.fingerprinted == 3)
        #expect(report.version.generation == 1)
        let eiffel = try #require(try store.landmark(id: "eiffel-tower"))
        #expect(eiffel.keywords == ["tower", "paris", "iron"] && eiffel.location?.latitude == 48.8584)
        #expect(eiffel.referenceImages.first?.fingerprint?.views.count == 3)
        #expect(try store.collections(containing: "eiffel-tower").map(\.id) == ["europe", "towers"])
        let europe = try #require(try store.collection(id: "europe"))
        #expect(europe.landmarkIDs == ["eiffel-tower", "europe/colosseum"] && europe.landmarkCount == 2)
        #expect(europe.displayRepresentation.thumbnailPath == eiffel.referenceImages[0].path)
        #expect(try store.fingerprintSnapshot().entries.map(\.landmarkID) == ["eiffel-tower", "europe/colosseum", "great-wall"])
    }

    @Test func entitiesForIdsSkipsUnknownIdsAndKeepsOrder() async throws {
        let (store, _) = try await indexedStore(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        #expect(try store.landmarks(ids: ["great-wall", "atlantis", "eiffel-tower", "great-wall"]).map(\.id) == ["great-wall", "eiffel-tower"])
        #expect(try store.collections(ids: ["nope", "towers"]).map(\.id) == ["towers"])
        #expect(try store.landmark(id: "atlantis") == nil)
    }

    @Test func reindexingSkipsUnchangedFilesWithoutDecoding() async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try SQLiteEntityStore()
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

    @Test func fingerprintsOfAnOlderLayoutVersionAreRecomputedAndReportedAsUpdated() async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try SQLiteEntityStore()
        let old = SyntheticFingerprinter(layoutVersion: 1)
        let first = try await CatalogIndexer(store: store, fingerprinter: old).index(FolderCatalogSource(folderPath: folder.path))
        #expect(first.added.count == 5 && old.callCount == 5)
        #expect(try store.fingerprintSnapshot().entries.allSatisfy { $0.fingerprints.allSatisfy { $0.layoutVersion == 1 } })

        // A newer layout: every file is read again, fingerprinted, and reported as updated.
        let new = SyntheticFingerprinter(layoutVersion: 2)
        let second = try await CatalogIndexer(store: store, fingerprinter: new).index(FolderCatalogSource(folderPath: folder.path))
        #expect(second.updated.count == 5 && second.unchanged.isEmpty && second.added.isEmpty)
        #expect(second.fingerprinted == 5 && new.callCount == 5)
        #expect(second.version.generation == first.version.generation + 1, "readers must rebuild their index")
        #expect(try store.fingerprintSnapshot().entries.allSatisfy { $0.fingerprints.allSatisfy { $0.layoutVersion == 2 } })

        // Same version again: nothing is fingerprinted.
        let third = try await CatalogIndexer(store: store, fingerprinter: new).index(FolderCatalogSource(folderPath: folder.path))
        #expect(third.unchanged.count == 5 && third.updated.isEmpty && new.callCount == 5)
        #expect(third.version == second.version)
    }

    @Test func aFailingFileIsReportedAndTheOthersAreIndexed() async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let broken = folder.appendingPathComponent("asia/broken.jpg")
        try Data([0xFF, 0xD8, 0xFF] + Array("CORRUPT".utf8)).write(to: broken)
        let store = try SQLiteEntityStore()
        let report = try await CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter()).index(FolderCatalogSource(folderPath: folder.path))
        #expect(report.failed == [IndexReport.Failure(path: broken.path, reason: "corrupt image data")])
        #expect(report.added.count == 5)
        #expect(try store.fingerprintSnapshot().entries.count == 5)
        // The landmark exists (it is in the source) but has nothing to match with.
        #expect(try store.landmark(id: "asia/broken")?.referenceImages.first?.fingerprint == nil)
    }

    @Test func removingIsASoftDeleteThatUndoRestores() async throws {
        let (store, _) = try await indexedStore(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let before = try store.catalogVersion()
        let removal = try store.remove(EntityReference(kind: .landmark, id: "eiffel-tower"))
        #expect(removal.entities == [EntityReference(kind: .landmark, id: "eiffel-tower")] && removal.reason == .removedByUser)
        #expect(try store.landmark(id: "eiffel-tower") == nil)
        #expect(try store.collection(id: "europe")?.landmarkIDs == ["europe/colosseum"])
        #expect(try !store.fingerprintSnapshot().entries.map(\.landmarkID).contains("eiffel-tower"))
        #expect(try store.catalogVersion().generation == before.generation + 1)
        try store.remove(EntityReference(kind: .collection, id: "towers"))
        #expect(try store.collection(id: "towers") == nil)

        #expect(throws: CatalogStoreError.unknownEntity(EntityReference(kind: .landmark, id: "eiffel-tower"))) {
            try store.remove(EntityReference(kind: .landmark, id: "eiffel-tower"))
        }

        #expect(try store.undoLastRemoval()?.entities == [EntityReference(kind: .collection, id: "towers")])
        #expect(try store.collection(id: "towers")?.landmarkIDs == [])
        #expect(try store.undoLastRemoval()?.entities == [EntityReference(kind: .landmark, id: "eiffel-tower")])
        let eiffel = try #require(try store.landmark(id: "eiffel-tower"))
        #expect(eiffel.referenceImages.first?.fingerprint != nil)
        #expect(try store.collection(id: "towers")?.landmarkIDs == ["eiffel-tower"])
        #expect(try store.undoLastRemoval() == nil)
        #expect(try store.removals().allSatisfy(\.isUndone))
    }

    @Test func userRemovalSurvivesReindexing() async throws {
        let store = try SQLiteEntityStore()
        let indexer = CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter())
        _ = try await indexer.index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        try store.remove(EntityReference(kind: .landmark, id: "great-wall"))
        _ = try await indexer.index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        #expect(try store.landmark(id: "great-wall") == nil)
        try store.undoLastRemoval()
        #expect(try store.landmark(id: "great-wall") != nil)
    }

    @Test func filesGoneFromTheSourceAreSoftDeletedAndComeBack() async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let store = try SQLiteEntityStore()
        let indexer = CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter())
        _ = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        let parked = folder.deletingLastPathComponent().appendingPathComponent("parked")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("europe/paris"), to: parked)
        let report = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(report.removedLandmarks == ["europe/paris/eiffel"] && report.removedCollections == ["europe/paris"])
        #expect(try store.landmark(id: "europe/paris/eiffel") == nil)
        #expect(try store.removals().first?.reason == .missingFromSource)

        try FileManager.default.moveItem(at: parked, to: folder.appendingPathComponent("europe/paris"))
        let back = try await indexer.index(FolderCatalogSource(folderPath: folder.path))
        #expect(Set(back.restored) == [EntityReference(kind: .landmark, id: "europe/paris/eiffel"), EntityReference(kind: .collection, id: "europe/paris")])
        #expect(back.unchanged.count == 5, "the restored image's fingerprint was kept")
        #expect(try store.landmark(id: "europe/paris/eiffel") != nil)
    }

    @Test func indexingStoppedHalfwayThroughTheWriteLeavesThePreviousCatalogIntact() async throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        let path = folder.deletingLastPathComponent().appendingPathComponent("catalog.sqlite").path
        let store = try SQLiteEntityStore(path: path)
        let fingerprinter = SyntheticFingerprinter()
        let indexer = CatalogIndexer(store: store, fingerprinter: fingerprinter)
        _ = try await indexer.index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let version = try store.catalogVersion()
        let landmarks = try store.allLandmarks()
        let collections = try store.allCollections()

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
        let reopened = try SQLiteEntityStore(path: path)
        #expect(try reopened.catalogVersion() == version)
        #expect(try reopened.allLandmarks() == landmarks)
        #expect(try reopened.allCollections() == collections)

        // Re-running finishes the job, reusing the fingerprints computed before the stop.
        let calls = fingerprinter.callCount
        let report = try await CatalogIndexer(store: reopened, fingerprinter: fingerprinter).index(FolderCatalogSource(folderPath: folder.path))
        #expect(report.fingerprinted == 0 && fingerprinter.callCount == calls)
        #expect(report.added.count == 5)
        #expect(try reopened.allLandmarks().map(\.id) == ["asia/great-wall", "asia/mislabelled", "europe/colosseum", "europe/paris/eiffel", "top-level"])
        #expect(try reopened.catalogVersion().generation == version.generation + 1)
    }

    @Test func cancellationLeavesThePreviousCatalogIntact() async throws {
        let store = try SQLiteEntityStore()
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
        #expect(try store.allLandmarks().isEmpty && store.catalogVersion().generation == 0)
    }

    @Test func imageStatisticsAreComputedOnDemand() async throws {
        let (store, _) = try await indexedStore(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let eiffel = try #require(try store.landmark(id: "eiffel-tower"))
        let statistics = await eiffel.imageStatistics
        #expect(statistics.images.count == 1 && statistics.isSearchable)
        #expect(statistics.images[0].fileSize == 815 && statistics.images[0].viewCount == 3 && statistics.images[0].meanQuality == 80)
        #expect(statistics.images[0].dominantColorBins.count == 3)
    }
}
