import Catalog
import CatalogStores
import CatalogTestSupport
import Foundation
import PostgresNIO
import PostgresStore
import PostgresTestSupport
import Testing

/// Partitioned PostgreSQL catalogs: PostgreSQL's own hash partitioning splits the reference
/// images by landmark id, a store opened for one partition reads only that share (at start
/// and for every change), a count or partition that is not the catalog's is refused, and
/// repartitioning keeps every image.
@Suite(.enabled(if: PostgresTestCluster.isEnabled))
struct PostgresPartitionTests {
    /// A folder of `count` distinct files that sniff as PNG (the synthetic fingerprinter
    /// hashes their bytes), `landmark-00.png`…
    static func folder(count: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-partitions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for k in 0..<count {
            let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("distinct image \(k)".utf8)
            try Data(bytes).write(to: folder.appendingPathComponent(String(format: "landmark-%02d.png", k)))
        }
        return folder.path
    }

    /// A new catalog of `landmarks` landmarks in `partitions` partitions; its URL.
    static func catalog(landmarks: Int, partitions: Int) async throws -> String {
        let catalog = try await TestCatalog.make(.postgres)
        guard case .postgres(let url) = catalog.location else { throw PostgresTestCluster.Failure(description: "not PostgreSQL") }
        let store = try await CatalogStores.open(catalog.location, mode: .readWrite, partitionCount: partitions)
        _ = try await CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter()).index(FolderCatalogSource(folderPath: try folder(count: landmarks)))
        return url
    }

    /// The landmark ids of the fingerprints a store opened for `partition` reads.
    static func share(_ url: String, _ partition: CatalogPartition?) async throws -> [String] {
        let store = try await CatalogStores.open(.postgres(url: url), mode: .readOnly, partition: partition)
        return try await store.fingerprintSnapshot().entries.map(\.landmarkID)
    }

    @Test func eachPartitionReadsADisjointShareAndTogetherTheyAreTheWholeCatalog() async throws {
        let url = try await Self.catalog(landmarks: 40, partitions: 4)
        let whole = try await Self.share(url, nil)
        #expect(whole.count == 40)
        var union: [String] = []
        for partition in try CatalogPartition.all(count: 4) {
            let share = try await Self.share(url, partition)
            #expect(!share.isEmpty && share.count < 40, "partition \(partition) holds \(share.count) of 40")
            #expect(share == share.sorted())
            // PostgreSQL's own table of that partition holds exactly these landmarks' rows.
            let stored = try PostgresTestCluster.psql(url, "SELECT string_agg(landmark_id, ',' ORDER BY landmark_id) FROM landmark_image_4_\(partition.index)")
            #expect(stored == share.joined(separator: ","))
            union += share
        }
        #expect(union.sorted() == whole, "the shares are disjoint and cover the catalog")
        // Entity reads see the whole catalog whatever the partition.
        let one = try await CatalogStores.open(.postgres(url: url), mode: .readOnly, partition: CatalogPartition(index: 0, count: 4))
        #expect(try await one.landmarks(ids: whole).count == 40)
    }

    @Test func aPartitionCountOrPartitionThatIsNotTheCatalogsIsRefused() async throws {
        let url = try await Self.catalog(landmarks: 4, partitions: 2)
        let location = try PostgresConnectionURL(url).description
        await #expect(throws: CatalogStoreError.cannotOpen(location, reason: "partition 1/3 asked, but the catalog has 2 partitions (0/2 to 1/2)")) {
            try await CatalogStores.open(.postgres(url: url), mode: .readOnly, partition: CatalogPartition(index: 1, count: 3))
        }
        await #expect(throws: CatalogStoreError.self) {
            try await CatalogStores.open(.postgres(url: url), mode: .readWrite, partitionCount: 3)
        }
        let sqlite = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-\(UUID().uuidString).sqlite").path
        await #expect(throws: CatalogStoreError.cannotOpen(sqlite, reason: "an SQLite catalog has no partitions; partitions need a PostgreSQL catalog (--db postgres://…)")) {
            try await CatalogStores.open(.sqlite(path: sqlite), mode: .readWrite, partition: CatalogPartition(index: 0, count: 2))
        }
        #expect(!FileManager.default.fileExists(atPath: sqlite), "nothing created")
    }

    @Test func changesSinceAGenerationNameOnlyThePartitionsLandmarks() async throws {
        let url = try await Self.catalog(landmarks: 12, partitions: 3)
        let writer = try await CatalogStores.open(.postgres(url: url), mode: .readWrite)
        let before = try await writer.catalogVersion().generation
        let all = try await Self.share(url, nil)
        for id in all { try await writer.remove(EntityReference(kind: .landmark, id: id)) }
        for partition in try CatalogPartition.all(count: 3) {
            let reader = try await CatalogStores.open(.postgres(url: url), mode: .readOnly, partition: partition)
            let changes = try await reader.changes(since: before)
            #expect(changes.isComplete && changes.fingerprints.isEmpty)
            #expect(changes.landmarkIDs == (try await Self.shareOf(all, in: partition, url)), "\(partition)")
        }
    }

    /// Which of `ids` PostgreSQL puts in `partition`, asked of PostgreSQL itself.
    static func shareOf(_ ids: [String], in partition: CatalogPartition, _ url: String) async throws -> [String] {
        let list = ids.map { "'\($0)'" }.joined(separator: ",")
        let out = try PostgresTestCluster.psql(url, """
            SELECT coalesce(string_agg(id, ',' ORDER BY id), '') FROM unnest(ARRAY[\(list)]) AS t(id)
            WHERE satisfies_hash_partition('landmark_image'::regclass, \(partition.count), \(partition.index), id)
            """)
        return out.isEmpty ? [] : out.split(separator: ",").map(String.init)
    }

    @Test func repartitioningKeepsEveryImageAndMovesReplicasToTheNewSplit() async throws {
        let url = try await Self.catalog(landmarks: 20, partitions: 2)
        let whole = try await Self.share(url, nil)
        let store = try await CatalogStores.open(.postgres(url: url), mode: .readOnly)
        let before = try await store.catalogVersion().generation
        #expect(try await CatalogStores.repartition(.postgres(url: url), count: 5) == (2, 5))
        #expect(try await CatalogStores.partitionCount(of: store) == 5)
        #expect(try await Self.share(url, nil) == whole)
        var union: [String] = []
        for partition in try CatalogPartition.all(count: 5) { union += try await Self.share(url, partition) }
        #expect(union.sorted() == whole)
        #expect(try await store.catalogVersion().generation == before + 1)
        #expect(try await store.changes(since: before).isComplete == false, "replicas reload in full")
        #expect(try await CatalogStores.repartition(.postgres(url: url), count: 5) == (5, 5), "the same count: nothing done")
        await #expect(throws: CatalogStoreError.self) {
            try await CatalogStores.open(.postgres(url: url), mode: .readOnly, partition: CatalogPartition(index: 0, count: 2))
        }
    }

    @Test func aCatalogOfTheUnpartitionedSchemaIsMigratedKeepingItsImages() async throws {
        let url = try await Self.catalog(landmarks: 6, partitions: 1)
        let whole = try await Self.share(url, nil)
        // Back to the schema before v3-partitions: a plain landmark_image table.
        _ = try PostgresTestCluster.psql(url, """
            BEGIN;
            CREATE TABLE plain AS SELECT * FROM landmark_image;
            DROP TABLE landmark_image;
            ALTER TABLE plain RENAME TO landmark_image;
            ALTER TABLE landmark_image ADD PRIMARY KEY (landmark_id, ordinal);
            CREATE INDEX landmark_image_path ON landmark_image(path);
            CREATE INDEX landmark_image_hash ON landmark_image(content_hash);
            DELETE FROM catalog_meta WHERE key = 'partitions';
            DELETE FROM glimpse_migrations WHERE name = 'v3-partitions';
            COMMIT;
            """)
        await #expect(throws: CatalogStoreError.self) { try await CatalogStores.open(.postgres(url: url), mode: .readOnly) }
        _ = try await CatalogStores.open(.postgres(url: url), mode: .readWrite, partitionCount: 3)
        #expect(try await Self.share(url, nil) == whole)
        var union: [String] = []
        for partition in try CatalogPartition.all(count: 3) { union += try await Self.share(url, partition) }
        #expect(union.sorted() == whole)
    }

    @Test func replicasRegisterRenewAndLeaveAndOnlyFreshOnesOfTheCurrentCountAreListed() async throws {
        let url = try await Self.catalog(landmarks: 4, partitions: 2)
        let directory = try #require(try await CatalogStores.open(.postgres(url: url), mode: .readOnly) as? any ClusterDirectory,
                                     "a read-only replica still registers itself")
        // A window far longer than this test takes on a loaded machine; "too old" is written
        // into the rows rather than waited for.
        let fresh = Duration.seconds(600)
        let a = ClusterMember(address: "http://127.0.0.1:9001", partition: try CatalogPartition(index: 1, count: 2), generation: 3)
        let b = ClusterMember(address: "http://127.0.0.1:9002", partition: try CatalogPartition(index: 0, count: 2), generation: 3)
        try await directory.heartbeat(a)
        try await directory.heartbeat(b)
        #expect(try await directory.members(heardWithin: fresh) == [b, a], "by partition, then address")
        // Renewed with a new generation: one row, updated.
        var renewed = a
        renewed.generation = 4
        try await directory.heartbeat(renewed)
        #expect(try await directory.members(heardWithin: fresh) == [b, renewed])
        // A heartbeat older than the limit is not listed; a member of another count neither.
        _ = try PostgresTestCluster.psql(url, "UPDATE cluster_member SET heartbeat_at = now() - interval '20 minutes' WHERE address = 'http://127.0.0.1:9002'")
        try await directory.heartbeat(ClusterMember(address: "http://127.0.0.1:9003", partition: try CatalogPartition(index: 2, count: 3), generation: 3))
        #expect(try await directory.members(heardWithin: fresh) == [renewed])
        try await directory.leave(address: a.address)
        #expect(try await directory.members(heardWithin: fresh).isEmpty)
        // A row an hour old is dropped at the next heartbeat of any replica.
        _ = try PostgresTestCluster.psql(url, "UPDATE cluster_member SET heartbeat_at = now() - interval '2 hours' WHERE address = 'http://127.0.0.1:9002'")
        try await directory.heartbeat(renewed)
        #expect(try PostgresTestCluster.psql(url, "SELECT string_agg(address, ',' ORDER BY address) FROM cluster_member") == "http://127.0.0.1:9001,http://127.0.0.1:9003")
    }
}
