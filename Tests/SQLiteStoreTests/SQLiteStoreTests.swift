import Catalog
import Fingerprints
import Foundation
import Synchronization
import GRDB
import Testing
@testable import SQLiteStore

/// What only the SQLite store has: its migrations, WAL, and how it opens files that are not
/// (or not yet, or no longer) its own. The shared behaviour is in StoreConformanceTests.
@Suite struct SQLiteStoreTests {
    func scratchPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("catalog.sqlite").path
    }

    /// SQLite's own file of another program: one table of notes.
    func foreignDatabase() throws -> String {
        let path = try scratchPath()
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')") }
        try queue.close()
        return path
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func freshStoreHasEveryMigrationApplied() throws {
        let path = try scratchPath()
        let store = try SQLiteEntityStore(path: path)
        let applied = try store.database.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
        #expect(applied == CatalogSchema.migrationNames)
        let journal = try store.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
        // Reopening is idempotent and keeps the catalog identity.
        let version = try store.catalogVersion()
        #expect(try SQLiteEntityStore(path: path).catalogVersion() == version)
        #expect(try SQLiteEntityStore(path: path, mode: .readOnly).catalogVersion() == version)
        let generic: any EntityStore = store
        #expect(generic.changeNotifications() == nil, "SQLite readers poll the version")
    }

    @Test func olderSchemaIsMigratedKeepingItsData() async throws {
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue, upTo: "v1-catalog")
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO landmark (id, name, position) VALUES ('old', 'Old landmark', 0)")
            #expect(try !db.tableExists("index_run"))
        }
        let store = try SQLiteEntityStore(database: queue, path: "v1")
        #expect(try await store.landmark(id: "old")?.name == "Old landmark")
        #expect(try await queue.read { try $0.tableExists("index_run") && $0.tableExists("change_log") })
    }

    @Test func theCopyKeysMigrationFillsDigestAndQualityFromTheStoredFingerprints() async throws {
        let queue = try DatabaseQueue()
        try CatalogSchema.migrator.migrate(queue, upTo: "v3-change-log")
        let flat = Fingerprint(views: [FingerprintView(region: .full, aHash: 0, dHash: 0, pHash: 0, pdq: .zero, quality: 0, histogram: .empty)])
        let detailed = Fingerprint(views: [FingerprintView(region: .full, aHash: 0, dHash: 0, pHash: 0x1234, pdq: .zero, quality: 80, histogram: .empty)])
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO fingerprint (content_hash, data) VALUES ('flat', ?), ('detailed', ?), ('damaged', x'00')",
                           arguments: [FingerprintCoding.encode(flat), FingerprintCoding.encode(detailed)])
        }
        _ = try SQLiteEntityStore(database: queue, path: "v3")
        let rows = try await queue.read { db in
            try Row.fetchAll(db, sql: "SELECT content_hash, frame_digest, whole_quality FROM fingerprint ORDER BY content_hash")
        }
        #expect(rows.map { $0["content_hash"] as String } == ["damaged", "detailed", "flat"])
        #expect(rows[0]["frame_digest"] as Int64? == nil && rows[0]["whole_quality"] as Int? == nil)
        #expect(rows[1]["frame_digest"] as Int64? == FrameDigest(of: detailed)?.value && rows[1]["whole_quality"] as Int? == 80)
        #expect(rows[2]["frame_digest"] as Int64? == FrameDigest(of: flat)?.value && rows[2]["whole_quality"] as Int? == 0)
        #expect(FrameDigest(of: flat) != FrameDigest(of: detailed))
    }

    @Test func anOlderCatalogOpensReadOnlyWithoutBeingMigrated() async throws {
        let path = try scratchPath()
        let queue = try DatabaseQueue(path: path)
        try CatalogSchema.migrator.migrate(queue, upTo: "v2-index-runs")
        try await queue.write { try $0.execute(sql: "INSERT INTO landmark (id, name, position) VALUES ('old', 'Old landmark', 0)") }
        try queue.close()
        let before = try bytes(path)
        let store = try SQLiteEntityStore(path: path, mode: .readOnly)
        #expect(try await store.landmark(id: "old")?.name == "Old landmark")
        #expect(try store.changes(since: 0).isComplete == false, "no change log yet: a reader reloads everything")
        #expect(try bytes(path) == before)
    }

    @Test(arguments: [CatalogAccessMode.readOnly, .readWrite])
    func anotherProgramsDatabaseIsRefusedAndLeftUntouched(_ mode: CatalogAccessMode) throws {
        let path = try foreignDatabase()
        let before = try bytes(path)
        #expect(throws: CatalogStoreError.notACatalog(path, reason: "an SQLite database of another program (tables: notes)")) {
            try SQLiteEntityStore(path: path, mode: mode)
        }
        #expect(try bytes(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aFileThatIsNotSQLiteIsNotACatalog() throws {
        let path = try scratchPath()
        try Data("hello, I am a text file and not a database at all".utf8).write(to: URL(fileURLWithPath: path))
        for mode in [CatalogAccessMode.readOnly, .readWrite] {
            #expect(throws: CatalogStoreError.notACatalog(path, reason: "not an SQLite database")) { try SQLiteEntityStore(path: path, mode: mode) }
        }
        #expect(try String(decoding: bytes(path), as: UTF8.self).hasPrefix("hello"))
    }

    @Test func anEmptyFileIsNotACatalogToReadButBecomesOneWhenIndexing() throws {
        let path = try scratchPath()
        FileManager.default.createFile(atPath: path, contents: Data())
        #expect(throws: CatalogStoreError.notACatalog(path, reason: "the file is empty")) { try SQLiteEntityStore(path: path, mode: .readOnly) }
        #expect(try bytes(path).isEmpty, "a read-only open wrote nothing")
        let store = try SQLiteEntityStore(path: path, mode: .readWrite)
        #expect(try store.catalogVersion().generation == 0)
    }

    /// `glimpse serve` opens its catalog read-only and counts the unsearchable images in
    /// the background, one read of seconds at a million images: a search's entity reads
    /// meanwhile are answered beside it, not after it.
    @Test func aLongReadOfAReadOnlyCatalogDoesNotHoldTheOtherReads() throws {
        let path = try scratchPath()
        let version = try SQLiteEntityStore(path: path).catalogVersion()
        let store = try SQLiteEntityStore(path: path, mode: .readOnly)
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), answered = DispatchSemaphore(value: 0)
        Thread {
            _ = try? store.read("holding a read") { _ in entered.signal(); release.wait() }
        }.start()
        entered.wait()
        let read = Mutex<CatalogVersion?>(nil)
        Thread {
            read.withLock { $0 = try? store.catalogVersion() }
            answered.signal()
        }.start()
        let inTime = answered.wait(timeout: .now() + 10) == .success
        release.signal()
        #expect(inTime, "the second read waited for the first")
        if !inTime { _ = answered.wait(timeout: .now() + 10) }
        #expect(read.withLock { $0 } == version)
    }

    /// A read-only catalog of another journal mode (an older Glimpse's, or copied by
    /// another tool) is still read, through one connection.
    @Test func aReadOnlyCatalogOutsideWALModeIsReadThroughOneConnection() throws {
        let path = try scratchPath()
        let version = try SQLiteEntityStore(path: path).catalogVersion()
        #expect(SQLiteEntityStore.isInWALMode(path))
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
        #expect(!SQLiteEntityStore.isInWALMode(path))
        let store = try SQLiteEntityStore(path: path, mode: .readOnly)
        #expect(store.database is DatabaseQueue)
        #expect(try store.catalogVersion() == version)
        #expect(!SQLiteEntityStore.isInWALMode(path), "a read-only open changed nothing")
    }

    @Test func aMissingFileIsNotCreatedByAReadOnlyOpen() throws {
        let path = try scratchPath()
        #expect(throws: CatalogStoreError.cannotOpen(path, reason: "no such file")) { try SQLiteEntityStore(path: path, mode: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [CatalogAccessMode.readOnly, .readWrite])
    func aCatalogOfANewerSchemaIsRefused(_ mode: CatalogAccessMode) throws {
        let path = try scratchPath()
        let store = try SQLiteEntityStore(path: path)
        try store.database.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')") }
        try store.database.close()
        #expect(throws: CatalogStoreError.newerSchema(path, migration: "v9-from-the-future")) { try SQLiteEntityStore(path: path, mode: mode) }
    }

    @Test func aReadOnlyStoreRefusesEveryWrite() async throws {
        let path = try scratchPath()
        _ = try SQLiteEntityStore(path: path)
        let store = try SQLiteEntityStore(path: path, mode: .readOnly)
        let reference = EntityReference(kind: .landmark, id: "x")
        await #expect(throws: CatalogStoreError.readOnly(path, operation: "remove glimpse://landmark/x")) { try await store.remove(reference) }
        await #expect(throws: CatalogStoreError.readOnly(path, operation: "undo the last removal")) { try await store.undoLastRemoval() }
    }

    /// A file this process may not write. As root, permissions do not stop writes, so
    /// this checks the fallback SQLite uses when they would: with the `-shm` impossible to
    /// create, the read-only open falls back to the `immutable` URI, which takes no lock
    /// and writes nothing. (The CLI test `ReadOnlyCatalogTests` runs the real command as
    /// an unprivileged user on a mode-444 file in a mode-555 folder.)
    @Test func aReadOnlyOpenWorksWhenSharedMemoryCannotBeCreated() async throws {
        let path = try scratchPath()
        let writer = try SQLiteEntityStore(path: path)
        let version = try writer.catalogVersion()
        try writer.database.close()
        #expect((try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0 == 0,
                "every write checkpoints: the file alone is the catalog")
        // A -shm that cannot be opened: a folder in its place.
        try? FileManager.default.removeItem(atPath: path + "-shm")
        try FileManager.default.createDirectory(atPath: path + "-shm", withIntermediateDirectories: false)
        let reader = try SQLiteEntityStore(path: path, mode: .readOnly)
        #expect(try reader.catalogVersion() == version)
    }
}
