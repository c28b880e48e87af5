import Catalog
import CatalogStores
import CatalogTestSupport
import Fingerprints
import Foundation
import PostgresNIO
import PostgresStore
import PostgresTestSupport
import Testing

/// What only the PostgreSQL store has: migrations shared by processes that start together,
/// refusing databases that are not Glimpse catalogs, NOTIFY on every committed change.
/// Runs on the test cluster; in CI a missing cluster fails these tests.
@Suite(.enabled(if: PostgresTestCluster.isEnabled))
struct PostgresStoreTests {
    func migrationCount(_ url: String) async throws -> Int {
        try await TestDatabases.withClient(PostgresConnectionURL(url)) { client in
            var count = 0
            for try await n in try await client.query("SELECT count(*) FROM glimpse_migrations").decode(Int.self) { count = n }
            return count
        }
    }

    @Test func manyStoresOpeningANewDatabaseAtOnceMigrateItOnce() async throws {
        let catalog = try await TestCatalog.make(.postgres)
        let versions = try await withThrowingTaskGroup(of: CatalogVersion.self) { group in
            for _ in 0..<8 {
                group.addTask { try await catalog.open(.readWrite).catalogVersion() }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(versions.map(\.catalogID)).count == 1, "one catalog identity, made once")
        guard case .postgres(let url) = catalog.location else { return }
        #expect(try await migrationCount(url) == 5)
    }

    @Test func aDatabaseOfAnotherProgramIsRefusedAndLeftUntouched() async throws {
        let catalog = try await TestCatalog.make(.postgres)
        guard case .postgres(let url) = catalog.location else { return }
        try await TestDatabases.withClient(PostgresConnectionURL(url)) { client in
            try await client.query("CREATE TABLE notes (id serial PRIMARY KEY, text text)")
        }
        for mode in [CatalogAccessMode.readOnly, .readWrite] {
            await #expect(throws: CatalogStoreError.notACatalog(try PostgresConnectionURL(url).description, reason: "a database of another program (tables: notes)")) {
                try await catalog.open(mode)
            }
        }
        let tables = try await TestDatabases.withClient(PostgresConnectionURL(url)) { client in
            var names: [String] = []
            for try await name in try await client.query("SELECT table_name::text FROM information_schema.tables WHERE table_schema = 'public'").decode(String.self) {
                names.append(name)
            }
            return names
        }
        #expect(tables == ["notes"])
    }

    @Test func anEmptyDatabaseIsNotACatalogToReadAndOfANewerSchemaIsRefused() async throws {
        let catalog = try await TestCatalog.make(.postgres)
        guard case .postgres(let url) = catalog.location else { return }
        let location = try PostgresConnectionURL(url).description
        await #expect(throws: CatalogStoreError.self) { try await catalog.open(.readOnly) }
        _ = try await catalog.open(.readWrite)
        try await TestDatabases.withClient(PostgresConnectionURL(url)) { client in
            try await client.query("INSERT INTO glimpse_migrations (name) VALUES ('v9-from-the-future')")
        }
        await #expect(throws: CatalogStoreError.newerSchema(location, migration: "v9-from-the-future")) { try await catalog.open(.readOnly) }
    }

    @Test func theCopyKeysMigrationFillsTheColumnsFromTheStoredFingerprints() async throws {
        let catalog = try await TestCatalog.make(.postgres)
        guard case .postgres(let url) = catalog.location else { return }
        let store = try await catalog.open(.readWrite)
        _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(FolderCatalogSource(folderPath: StoreConformanceTests.lowInformation.path))
        // Back to the schema before v2-copy-keys, with its fingerprints kept.
        try await TestDatabases.withClient(PostgresConnectionURL(url)) { client in
            try await client.query("ALTER TABLE fingerprint DROP COLUMN frame_digest, DROP COLUMN whole_quality")
            try await client.query("DELETE FROM glimpse_migrations WHERE name = 'v2-copy-keys'")
        }
        await #expect(throws: CatalogStoreError.self) { try await catalog.open(.readOnly) }
        let migrated = try await catalog.open(.readWrite)
        #expect(try await migrationCount(url) == 5)
        #expect(try await migrated.unsearchableCounts(minimumViewQuality: FingerprintView.minimumSearchableQuality) == UnsearchableCounts(images: 5, landmarks: 5))
        let blue = try ImageFingerprinter.catalog.fingerprint(file: StoreConformanceTests.lowInformation.appendingPathComponent("flat-blue.png").path)
        #expect(try await migrated.landmarkIDs(copying: CopyKey(contentHash: ContentHash(hex: "0"), frameDigest: FrameDigest(of: blue))) == ["flat-blue"])
    }

    @Test func anUnreachableServerIsOneClearError() async throws {
        let url = "postgres://glimpse@127.0.0.1:1/nowhere"
        do {
            _ = try await CatalogStores.open(.postgres(url: url), mode: .readOnly)
            Issue.record("opened a catalog on port 1")
        } catch {
            #expect(error.description.hasPrefix("postgres://glimpse@127.0.0.1:1/nowhere: cannot open catalog: "), "\(error)")
        }
    }

    @Test func everyCommittedChangeIsAnnouncedAndReadableAsChangesSinceAGeneration() async throws {
        let catalog = try await TestCatalog.make(.postgres)
        let store = try #require(try await catalog.open() as? PostgresEntityStore)
        let first = try await CatalogIndexer(store: store, fingerprinter: SyntheticFingerprinter()).index(ManifestCatalogSource(manifestPath: Fixtures.manifest))
        let listener = try #require(try await catalog.open(.readOnly) as? PostgresEntityStore)
        let generic: any EntityStore = listener
        var notifications = try #require(generic.changeNotifications()).makeAsyncIterator()
        #expect(try await notifications.next() == -1, "listening")
        try await store.remove(EntityReference(kind: .landmark, id: "great-wall"))
        #expect(try await notifications.next() == first.version.generation + 1)
        let changes = try await listener.changes(since: first.version.generation)
        #expect(changes.isComplete && changes.landmarkIDs == ["great-wall"] && changes.fingerprints.isEmpty)
        try await store.undoLastRemoval()
        #expect(try await notifications.next() == first.version.generation + 2)
        let back = try await listener.changes(since: first.version.generation + 1)
        #expect(back.landmarkIDs == ["great-wall"] && back.fingerprints.map(\.landmarkID) == ["great-wall"])
        #expect(try await listener.changes(since: 0).landmarkIDs.count == 3)
        await #expect(throws: CatalogStoreError.readOnly(listener.location, operation: "undo the last removal")) { try await listener.undoLastRemoval() }
    }
}
