import Catalog
import Fingerprints
import Foundation
import SyntheticData
import Testing
import SQLiteStore
@testable import Search

/// The snapshot `glimpse index` streams from the catalog (a chunk of views at a time) is the
/// snapshot of the index built in memory, byte for byte, whatever the chunk size.
@Suite struct StreamedSnapshotTests {
    /// The bytes of the file at `path`.
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// The snapshot written from the index built in memory, in `folder`.
    static func inMemorySnapshot(_ store: SQLiteEntityStore, in folder: URL) async throws -> Data {
        let path = folder.appendingPathComponent("in-memory.vindex").path
        try VisualIndexSnapshot.write(try await VisualIndex(store: store), to: path)
        return try bytes(path)
    }

    @Test(arguments: [31, 1_000, 32_768])
    func aStreamedSnapshotIsTheInMemorySnapshotByteForByte(chunkViews: Int) async throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        let store = try await VisualIndexSnapshotTests.catalog(in: folder, landmarks: 150, seed: 11)
        // A removed landmark, and views under the quality floor, are left out alike.
        try await store.remove(EntityReference(kind: .landmark, id: SyntheticCatalog.landmarkID(7)))
        let path = folder.appendingPathComponent("catalog.sqlite.vindex").path
        let action = try await VisualIndexSnapshot.rewrite(store: store, path: path, minimumViewQuality: 40, chunkViews: chunkViews)
        #expect(action == .written)
        let streamed = try Self.bytes(path)
        let memoryPath = folder.appendingPathComponent("in-memory.vindex").path
        try VisualIndexSnapshot.write(try await VisualIndex(store: store, minimumViewQuality: 40), to: memoryPath)
        #expect(streamed == (try Self.bytes(memoryPath)))
        guard case .loaded(let index) = VisualIndexSnapshot.load(path: path, expecting: try store.catalogVersion(), minimumViewQuality: 40) else {
            Issue.record("a streamed snapshot must load")
            return
        }
        #expect(index.landmarkCount == 149 && index.viewCount < 149 * 31)
        #expect(throws: Never.self) { try index.storage.check(index.layout.bodyStart..<index.layout.length) }
    }

    @Test func aRealCatalogsStreamedSnapshotMatchesToo() async throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        let store = try SQLiteEntityStore(path: folder.appendingPathComponent("catalog.sqlite").path)
        _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(ManifestCatalogSource(manifestPath: RealPhotoSearchTests.catalogFolder.appendingPathComponent("manifest.json").path))
        let path = folder.appendingPathComponent("catalog.sqlite.vindex").path
        #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path, minimumViewQuality: SimilarityScoring.default.minimumViewQuality,
                                                      chunkViews: 100) == .written)
        #expect(try Self.bytes(path) == (try await Self.inMemorySnapshot(store, in: folder)))
    }

    @Test func aCurrentSnapshotIsLeftAloneAndAStaleOneRewritten() async throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        let store = try await VisualIndexSnapshotTests.catalog(in: folder, landmarks: 40)
        let path = folder.appendingPathComponent("catalog.sqlite.vindex").path
        #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path) == .written)
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path) == .upToDate)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == written)
        try await store.remove(EntityReference(kind: .landmark, id: SyntheticCatalog.landmarkID(3)))
        #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path) == .written)
        #expect(try Self.bytes(path) == (try await Self.inMemorySnapshot(store, in: folder)))
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func aSnapshotThatCannotBeWrittenIsReportedAndTheCatalogIsUntouched() async throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        let store = try await VisualIndexSnapshotTests.catalog(in: folder, landmarks: 20)
        let version = try store.catalogVersion()
        let path = folder.appendingPathComponent("no-such-folder/catalog.sqlite.vindex").path
        guard case .notWritten(let reason) = try await VisualIndexSnapshot.rewrite(store: store, path: path) else {
            Issue.record("a snapshot in a missing folder cannot be written")
            return
        }
        #expect(reason.contains("no-such-folder") && reason.contains("No such file or directory"))
        #expect(try store.catalogVersion() == version)
    }
}

/// The capacity benchmark's snapshot (`glimpse debug-capacity-index`): generated landmarks
/// merged with real ones, written from a stream with no catalog behind it.
@Suite struct GeneratedStreamSnapshotTests {
    /// Real-looking entries whose ids sort before, between and after the generated ones.
    static func realEntries() -> [FingerprintSnapshot.Entry] {
        var generator = SeededGenerator(seed: 5)
        let regions = FingerprintViewLayout.catalog.viewRegions
        return ["aurora", "synthetic/L00000003x", "zebra"].map {
            FingerprintSnapshot.Entry(landmarkID: $0, fingerprints: [SyntheticCatalog.fingerprint(regions: regions, using: &generator)])
        }
    }

    @Test func aGeneratedStreamMergedWithRealEntriesIsTheInMemorySnapshotByteForByte() throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        let version = CatalogVersion(catalogID: "capacity-test", generation: 3, tokenKey: SIMD2(7, 8))
        let synthetic = SyntheticCatalog(landmarks: 12, seed: 9)
        let real = Self.realEntries()
        let collection = CollectionEntity(id: "c", name: "C", landmarkIDs: ["aurora", "zebra"])
        let path = folder.appendingPathComponent("capacity.vindex").path
        try VisualIndexSnapshot.write(synthetic.fingerprintStream(version: version, merging: real), collections: [collection], to: path)

        // The same landmarks built in memory, sorted by id, as a catalog would give them.
        let generated = synthetic.content().landmarks.map {
            FingerprintSnapshot.Entry(landmarkID: $0.id, fingerprints: $0.referenceImages.compactMap(\.fingerprint))
        }
        let all = (generated + real).sorted { $0.landmarkID < $1.landmarkID }
        let memoryPath = folder.appendingPathComponent("in-memory.vindex").path
        try VisualIndexSnapshot.write(VisualIndex(version: version, entries: all, collections: [collection]), to: memoryPath)
        #expect(try StreamedSnapshotTests.bytes(path) == (try StreamedSnapshotTests.bytes(memoryPath)))

        guard case .loaded(let index) = VisualIndexSnapshot.load(path: path, expecting: version) else {
            Issue.record("the written snapshot must load")
            return
        }
        #expect(index.landmarkCount == 15)
        #expect(index.landmarkIDs.first == "aurora" && index.landmarkIDs.last == "zebra")
    }

    @Test func entriesOutOfIDOrderAreRefusedAndNothingIsWritten() throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        let version = CatalogVersion(catalogID: "capacity-test", generation: 1, tokenKey: SIMD2(1, 2))
        let path = folder.appendingPathComponent("capacity.vindex").path
        let unsorted = Array(Self.realEntries().reversed())
        #expect(throws: VisualIndexSnapshotError.self) {
            try VisualIndexSnapshot.write(SyntheticCatalog(landmarks: 2).fingerprintStream(version: version, merging: unsorted), collections: [], to: path)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }.isEmpty)
    }
}
