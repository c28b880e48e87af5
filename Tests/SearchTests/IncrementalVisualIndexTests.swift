import Catalog
import Fingerprints
import Foundation
import SyntheticData
import Testing
import SQLiteStore
@testable import Search

/// The replica's incremental index: after every kind of catalog change (removal, undo,
/// re-index with changed, new and missing landmarks, collection changes) the index brought
/// up to date from `changes(since:)` answers exactly what an index rebuilt from the whole
/// catalog answers: the same matches, scores, order and ties, the same membership.
@Suite struct IncrementalVisualIndexTests {
    static let landmarks = 240

    /// The synthetic catalog plus landmarks that tie with synthetic landmark 5 (an identical
    /// fingerprint) under ids sorting before, between and after it, so the merge of base and
    /// delta must break ties by id exactly as one index does.
    static func content(seed: UInt64 = 11, extra: [LandmarkEntity] = [], dropping: Set<String> = [],
                        changed: [String: Fingerprint] = [:], extraCollections: [CollectionEntity] = []) -> CatalogContent {
        let synthetic = SyntheticCatalog(landmarks: landmarks, collections: 4, seed: seed).content()
        let twin = synthetic.landmarks[5].referenceImages[0].fingerprint!
        let ties = ["a/tie", "synthetic/L00000005x", "z/tie"].map { id in
            LandmarkEntity(id: id, name: id, continent: nil, description: "tie", keywords: [],
                           referenceImages: [ReferenceImage(path: id + ".jpg", fingerprint: twin)])
        }
        var landmarks = (synthetic.landmarks + ties + extra).filter { !dropping.contains($0.id) }
        for k in landmarks.indices {
            if let fingerprint = changed[landmarks[k].id] {
                landmarks[k].referenceImages = [ReferenceImage(path: landmarks[k].id + "-v2.jpg", fingerprint: fingerprint)]
            }
        }
        var collections = synthetic.collections + extraCollections
        collections[0].landmarkIDs += ["a/tie"]
        return CatalogContent(landmarks: landmarks, collections: collections)
    }

    static func index(_ store: SQLiteEntityStore, _ content: CatalogContent) async throws {
        _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(precomputed: content, sourceDescription: "test")
    }

    /// Queries near the given landmarks' views (a full frame and a crop from each), plus
    /// unrelated ones.
    static func queries(_ store: SQLiteEntityStore, near ids: [String]) async throws -> [Fingerprint] {
        let entries = try await store.fingerprintSnapshot().entries
        var out: [Fingerprint] = []
        for (k, id) in ids.enumerated() {
            guard let entry = entries.first(where: { $0.landmarkID == id }) else { continue }
            var query = SearchFixtures.fingerprint(seed: UInt64(100 + k), views: 3)
            query.views[0] = entry.fingerprints[0].views[0]
            query.views[1] = entry.fingerprints[0].views[(k * 7) % 31 + 1 == 31 ? 30 : (k * 7) % 31 + 1]
            out.append(query)
            out.append(SearchFixtures.perturbed(query, bits: 30, seed: UInt64(k)))
        }
        out.append(SearchFixtures.fingerprint(seed: 7, views: 3))
        return out
    }

    /// Compares every answer of `incremental` with an index rebuilt from `store`.
    static func expectEquivalent(_ incremental: IncrementalVisualIndex, _ store: SQLiteEntityStore, queries: [Fingerprint],
                                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let rebuilt = try await VisualIndex(store: store)
        #expect(incremental.version == rebuilt.version, sourceLocation: sourceLocation)
        #expect(incremental.viewCount == rebuilt.viewCount && incremental.landmarkCount == rebuilt.landmarkCount, sourceLocation: sourceLocation)
        var nonEmpty = 0
        for query in queries {
            for limit in [Int.max, 5, 2, 1] {
                for minimumScore in [0, SimilarityScoring.default.noMatchThreshold] {
                    let a = try incremental.search(query, minimumScore: minimumScore, limit: limit).matches
                    let b = try rebuilt.search(query, minimumScore: minimumScore, limit: limit).matches
                    #expect(a == b, "limit \(limit), minimum \(minimumScore)", sourceLocation: sourceLocation)
                    if !b.isEmpty { nonEmpty += 1 }
                }
            }
        }
        #expect(nonEmpty > queries.count, sourceLocation: sourceLocation)
        let ids = rebuilt.landmarkIDs + ["unknown/landmark", SyntheticCatalog.landmarkID(3)]
        #expect(incremental.collectionsByLandmark(for: ids) == rebuilt.collectionsByLandmark(for: ids), sourceLocation: sourceLocation)
    }

    @Test func afterEachKindOfChangeTheIncrementalIndexAnswersExactlyAsARebuild() async throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteEntityStore(path: folder.appendingPathComponent("catalog.sqlite").path)
        try await Self.index(store, Self.content())
        var index = IncrementalVisualIndex(base: try await VisualIndex(store: store))
        let near = [3, 5, 10, 20, 33, 100].map(SyntheticCatalog.landmarkID) + ["a/tie", "new/ghost"]
        let queries = try await Self.queries(store, near: near)
        try await Self.expectEquivalent(index, store, queries: queries)
        #expect(try await index.updated(from: store)?.version == index.version)

        // 1. A user removal of one landmark (and one that ties with others).
        try await store.remove(EntityReference(kind: .landmark, id: SyntheticCatalog.landmarkID(3)))
        try await store.remove(EntityReference(kind: .landmark, id: "synthetic/L00000005x"))
        index = try #require(try await index.updated(from: store))
        #expect(index.changedLandmarkCount == 2)
        try await Self.expectEquivalent(index, store, queries: queries)

        // 2. A re-index: landmark 10 gets a new image, landmark 20 leaves the source, new
        //    landmarks arrive (one ties with landmark 5 from the delta), a new collection.
        var generator = SeededGenerator(seed: 77)
        let regions = FingerprintViewLayout.catalog.viewRegions
        let twin = try #require(try await store.landmark(id: SyntheticCatalog.landmarkID(5))?.referenceImages[0].fingerprint)
        let ghost = SyntheticCatalog.fingerprint(regions: regions, using: &generator)
        let extra = [
            LandmarkEntity(id: "new/ghost", name: "Ghost", continent: nil, description: "new", keywords: [],
                           referenceImages: [ReferenceImage(path: "ghost.jpg", fingerprint: ghost)]),
            LandmarkEntity(id: "m/tie", name: "Tie", continent: nil, description: "new tie", keywords: [],
                           referenceImages: [ReferenceImage(path: "m-tie.jpg", fingerprint: twin)]),
        ]
        let newCollection = CollectionEntity(id: "new/collection", name: "New", landmarkIDs: ["new/ghost", SyntheticCatalog.landmarkID(33), "m/tie"])
        try await Self.index(store, Self.content(
            extra: extra, dropping: [SyntheticCatalog.landmarkID(20)],
            changed: [SyntheticCatalog.landmarkID(10): SyntheticCatalog.fingerprint(regions: regions, using: &generator)],
            extraCollections: [newCollection]))
        index = try #require(try await index.updated(from: store))
        let queries2 = try await Self.queries(store, near: near + ["m/tie"])
        try await Self.expectEquivalent(index, store, queries: queries2)

        // 3. A collection removed (membership of base and delta landmarks changes), then undone.
        try await store.remove(EntityReference(kind: .collection, id: SyntheticCatalog.idPrefix + "C1"))
        try await store.remove(EntityReference(kind: .collection, id: "new/collection"))
        index = try #require(try await index.updated(from: store))
        try await Self.expectEquivalent(index, store, queries: queries2)
        try await store.undoLastRemoval()
        index = try #require(try await index.updated(from: store))
        try await Self.expectEquivalent(index, store, queries: queries2)

        // 4. The first removal undone: landmark 3 comes back (from the delta now).
        try await store.undoLastRemoval()
        try await store.undoLastRemoval()
        index = try #require(try await index.updated(from: store))
        try await Self.expectEquivalent(index, store, queries: queries2)
        let (changed, compact) = (index.changedLandmarkCount, index.needsCompaction())
        #expect(changed == 6 && !compact, "six landmarks changed, a delta far below a sixteenth of the base")
    }

    @Test func changesFromAnotherGenerationOrCatalogAreRefused() async throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteEntityStore(path: folder.appendingPathComponent("a.sqlite").path)
        try await Self.index(store, Self.content())
        let other = try SQLiteEntityStore(path: folder.appendingPathComponent("b.sqlite").path)
        try await Self.index(other, Self.content())
        let index = IncrementalVisualIndex(base: try await VisualIndex(store: store))
        // Another catalog: its change log says nothing about this index.
        #expect(try await index.updated(from: other) == nil)
        try await store.remove(EntityReference(kind: .landmark, id: SyntheticCatalog.landmarkID(1)))
        let changes = try await store.changes(since: index.version.generation)
        var skipped = changes
        skipped.sinceGeneration += 1
        #expect(index.applying(skipped, collections: [], membership: [:]) == nil)
        var incomplete = changes
        incomplete.isComplete = false
        #expect(index.applying(incomplete, collections: [], membership: [:]) == nil)
        #expect(index.applying(changes, collections: try await store.allCollections(), membership: [:])?.version == changes.version)
    }
}
