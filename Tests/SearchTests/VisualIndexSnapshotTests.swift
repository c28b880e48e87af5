import Catalog
import Fingerprints
import Foundation
import SyntheticData
import Testing
import SQLiteStore
@testable import Search

/// The snapshot beside the catalog: used only when sound and current, rebuilt when stale,
/// ignored when damaged, and never a reason for a different answer.
@Suite struct VisualIndexSnapshotTests {
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-vindex-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A catalog file of synthetic landmarks in 3 collections, written through the indexer.
    static func catalog(in folder: URL, landmarks: Int = 200, seed: UInt64 = 5) async throws -> SQLiteEntityStore {
        let store = try SQLiteEntityStore(path: folder.appendingPathComponent("catalog.sqlite").path)
        let content = SyntheticCatalog(landmarks: landmarks, collections: 3, seed: seed).content()
        _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(precomputed: content, sourceDescription: "test")
        return store
    }

    static func queries(_ store: SQLiteEntityStore) throws -> [Fingerprint] {
        let snapshot = try store.fingerprintSnapshot()
        return snapshot.entries.prefix(12).enumerated().map { k, entry in
            var query = SearchFixtures.fingerprint(seed: UInt64(k), views: 4)
            query.views[k % 4] = entry.fingerprints[0].views[(k * 5) % 31]
            query.views[k % 4].region = k % 4 == 0 ? .full : query.views[k % 4].region
            return query
        }
    }

    @Test func aSnapshotGivesTheSameIndexBytesAndAnswersAsBuildingFromTheCatalog() async throws {
        let folder = try Self.scratch()
        let store = try await Self.catalog(in: folder)
        let path = folder.appendingPathComponent("catalog.sqlite.vindex").path
        let (built, action) = try await VisualIndexSnapshot.refresh(store: store, path: path)
        #expect(action == .written)
        guard case .loaded(let mapped) = VisualIndexSnapshot.load(path: path, expecting: try store.catalogVersion()) else {
            Issue.record("a freshly written snapshot must load")
            return
        }
        #expect(try await VisualIndexSnapshot.refresh(store: store, path: path).action == .upToDate)
        // Same bytes apart from the checksum field and the block table, which only the file carries.
        let layout = built.layout
        #expect(mapped.bytesUsed == built.bytesUsed && mapped.layout == layout)
        #expect(memcmp(mapped.storage.base, built.storage.base, 24) == 0)
        #expect(memcmp(mapped.storage.base + 32, built.storage.base + 32, layout.blockTable - 32) == 0)
        #expect(memcmp(mapped.storage.base + layout.bodyStart, built.storage.base + layout.bodyStart, layout.length - layout.bodyStart) == 0)
        // Every block of the file matches its table entry.
        #expect(layout.blockCount == (layout.length - layout.bodyStart + 4095) / 4096 && layout.blockCount > 100)
        #expect(throws: Never.self) { try mapped.storage.check(layout.bodyStart..<layout.length) }
        #expect(mapped.landmarkIDs == built.landmarkIDs && mapped.collectionIDs(ofLandmark: 4) == built.collectionIDs(ofLandmark: 4))
        for query in try Self.queries(store) {
            let a = try built.search(query, minimumScore: 0), b = try mapped.search(query, minimumScore: 0)
            #expect(a == b && !a.matches.isEmpty)
        }
        // The end-to-end query answers the same pages with and without the snapshot.
        let withSnapshot = VisualSearchQuery(store: store, snapshotPath: path, snapshotReplacement: .anyFile)
        let without = VisualSearchQuery(store: store)
        var matchedPages = 0
        for query in try Self.queries(store) {
            let page = PageRequest(size: 20, deadline: .seconds(60))
            let a = try await withSnapshot.values(for: query, page: page), b = try await without.values(for: query, page: page)
            #expect(a.items.map(\.value.url) == b.items.map(\.value.url) && a.items.map(\.score) == b.items.map(\.score))
            // Every synthetic landmark is in a collection: a page with a landmark has its collection too
            // (membership comes from the snapshot).
            if a.items.contains(where: { $0.value.landmark != nil }) {
                #expect(a.items.contains { $0.value.collection != nil })
                matchedPages += 1
            }
        }
        #expect(matchedPages >= 3)
    }

    @Test func aSnapshotBehindTheCatalogIsTheBaseOfTheChangesSinceAndNeverAnswersWhatChanged() async throws {
        let folder = try Self.scratch()
        let store = try await Self.catalog(in: folder)
        let path = folder.appendingPathComponent("catalog.sqlite.vindex").path
        _ = try await VisualIndexSnapshot.refresh(store: store, path: path)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        let removed = SyntheticCatalog.landmarkID(3)
        try await store.remove(EntityReference(kind: .landmark, id: removed))
        let version = try store.catalogVersion()
        guard case .stale = VisualIndexSnapshot.load(path: path, expecting: version) else {
            Issue.record("a snapshot of an older generation is not the current one")
            return
        }
        // Opened as the base of the change since: the catalog's version, without the removed landmark.
        let opened = try #require(try await IncrementalVisualIndex.opened(snapshotAt: path, store: store))
        #expect(opened.version == version && opened.baseGeneration == version.generation - 1 && opened.isMappedSnapshot)
        #expect(!opened.contains(landmark: removed) && opened.contains(landmark: SyntheticCatalog.landmarkID(4)))
        // A query over the changed catalog never sees the removed landmark, and leaves the snapshot as it is.
        let search = VisualSearchQuery(store: store, snapshotPath: path, snapshotReplacement: .anyFile)
        let query = try store.fingerprintSnapshot().entries.first { $0.landmarkID == SyntheticCatalog.landmarkID(4) }!.fingerprints[0]
        let before = try await search.landmarkMatches(for: query)
        #expect(!before.contains { $0.landmarkID == removed } && before.first?.landmarkID == SyntheticCatalog.landmarkID(4))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
        // A rewrite (what a replace run of `glimpse index` does) brings it to the current generation.
        #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path) == .written)
        guard case .loaded(let index) = VisualIndexSnapshot.load(path: path, expecting: version) else {
            Issue.record("the rewrite must have made the snapshot current")
            return
        }
        #expect(!index.landmarkIDs.contains(removed))
        // Another quality threshold is stale, and is not a base either.
        guard case .stale = VisualIndexSnapshot.load(path: path, expecting: version, minimumViewQuality: 50) else {
            Issue.record("a snapshot made for another quality threshold must be stale")
            return
        }
        #expect(try await IncrementalVisualIndex.opened(snapshotAt: path, store: store, minimumViewQuality: 50) == nil)
    }

    @Test func aDamagedSnapshotIsNeverTrustedAndTheCatalogAnswers() async throws {
        let folder = try Self.scratch()
        let store = try await Self.catalog(in: folder)
        let path = folder.appendingPathComponent("catalog.sqlite.vindex").path
        let (built, _) = try await VisualIndexSnapshot.refresh(store: store, path: path)
        let layout = built.layout
        let version = try store.catalogVersion()
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        func flipping(_ offset: Int) -> Data {
            var bytes = good
            bytes[offset] ^= 0x01
            return bytes
        }
        // Damage found on open: the header, the block table, the sections checked on open.
        let damaged: [(String, Data)] = [
            ("a bit of the header", flipping(100)), ("a bit of the block table", flipping(layout.blockTable + 13)),
            ("a bit of the owners", flipping(layout.owners + 4 * 3000 + 1)),
            ("a bit of the region numbers", flipping(layout.regionNumbers + 8)),
            ("a bit of a landmark id", flipping(layout.landmarkIDData + 5)),
            ("truncated", good.prefix(good.count - 64)), ("header only", good.prefix(100)),
            ("empty", Data()), ("not a snapshot", Data(repeating: 0x47, count: 4096)), ("a count changed", flipping(112)),
        ]
        // A FIFO in the snapshot's place is refused without blocking, and replaced.
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        switch VisualIndexSnapshot.load(path: path, expecting: version) {
        case .damaged: break
        default: Issue.record("a FIFO must be reported damaged")
        }
        _ = try await VisualSearchQuery(store: store, snapshotPath: path, snapshotReplacement: .anyFile).landmarkMatches(for: try Self.queries(store)[0])
        guard case .loaded = VisualIndexSnapshot.load(path: path, expecting: version) else {
            Issue.record("the FIFO must have been replaced by a snapshot")
            return
        }
        let query = try Self.queries(store)[1]
        let expected = try built.search(query, minimumScore: 0).matches
        for (name, bytes) in damaged {
            try bytes.write(to: URL(fileURLWithPath: path))
            switch VisualIndexSnapshot.load(path: path, expecting: version) {
            case .damaged: break
            default: Issue.record("\(name): must be reported damaged")
            }
            // Searching still answers from the catalog, and repairs the file.
            let answer = try await VisualSearchQuery(store: store, snapshotPath: path, snapshotReplacement: .anyFile).landmarkMatches(for: query)
            #expect(answer == expected, "\(name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == good, "\(name): the snapshot must have been rewritten")
        }

        // Damage found by the search that reads it: the PDQ planes (every scan reads them
        // all) and the rows of the best match's views (read when scored). The mapped index
        // stops the search; the query rebuilds from the catalog, answers, and repairs the file.
        guard let best = expected.first, let owner = built.landmarkNumber(of: best.landmarkID) else {
            Issue.record("the query must match a landmark")
            return
        }
        let views = built.owners.indices.filter { built.owners[$0] == Int32(owner) }
        let readDamage: [(String, Data)] = [
            ("a bit of the PDQ planes", flipping(layout.pdqPlanes + 8 * (2 * layout.views + layout.views / 2) + 3)),
            ("the best match's histograms", views.reduce(good) { bytes, v in
                var bytes = bytes
                bytes[layout.histograms + 64 * v + 7] ^= 0x10
                return bytes
            }),
            ("the best match's pHashes", views.reduce(good) { bytes, v in
                var bytes = bytes
                bytes[layout.pHashes + 8 * v] ^= 0x01
                return bytes
            }),
        ]
        for (name, bytes) in readDamage {
            try bytes.write(to: URL(fileURLWithPath: path))
            guard case .loaded(let mapped) = VisualIndexSnapshot.load(path: path, expecting: version) else {
                Issue.record("\(name): a block outside the sections checked on open must not be read on open")
                continue
            }
            #expect(throws: VisualIndexDamage.self, "\(name)") { try mapped.search(query, minimumScore: 0) }
            let answer = try await VisualSearchQuery(store: store, snapshotPath: path, snapshotReplacement: .anyFile).landmarkMatches(for: query)
            #expect(answer == expected, "\(name)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == good, "\(name): the snapshot must have been rewritten")
        }

        // A damaged block that no search reads changes nothing: the row of a view far from the query.
        let far = (0..<layout.views).first { v in !views.contains(v) && built.owners[v] != built.owners[views[0]] && v > layout.views / 2 } ?? 0
        try flipping(layout.histograms + 64 * far).write(to: URL(fileURLWithPath: path))
        guard case .loaded(let mapped) = VisualIndexSnapshot.load(path: path, expecting: version) else {
            Issue.record("an unread block must not be read on open")
            return
        }
        #expect(try mapped.search(query, minimumScore: SimilarityScoring.defaultNoMatchThreshold).matches
            == built.search(query, minimumScore: SimilarityScoring.defaultNoMatchThreshold).matches)
    }

    @Test func anUnwritableSnapshotPlaceFallsBackToTheIndexInMemory() async throws {
        let folder = try Self.scratch()
        let store = try await Self.catalog(in: folder, landmarks: 40)
        // A path under a regular file can never be created (even by root): like a read-only folder.
        let blocker = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let path = blocker.appendingPathComponent("catalog.sqlite.vindex").path
        let (index, action) = try await VisualIndexSnapshot.refresh(store: store, path: path)
        guard case .notWritten = action else {
            Issue.record("writing under a file must fail, got \(action)")
            return
        }
        let query = try Self.queries(store)[2]
        let answer = try await VisualSearchQuery(store: store, snapshotPath: path, snapshotReplacement: .anyFile).landmarkMatches(for: query)
        #expect(try answer == index.search(query, minimumScore: 0).matches && !answer.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".tmp-") })
    }
}
