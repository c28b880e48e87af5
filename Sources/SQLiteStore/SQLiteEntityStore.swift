import Catalog
import Foundation
import GRDB

/// The default ``EntityStore``: one SQLite file through GRDB, with its schema under
/// migrations (``CatalogSchema``). Every write is one transaction, so a crash or
/// `kill -9` at any moment leaves either the old or the new state.
///
/// Opened ``AccessMode/readWrite`` (only `index` and `catalog remove|undo`) it creates the
/// file when missing and migrates it, in WAL mode (a `DatabasePool`: readers never block
/// the writer). Opened ``AccessMode/readOnly`` (every other command) it never writes: it
/// refuses a file that is missing, empty, another program's, or of a newer schema, and
/// works on a file it may not write (mode 444, `chattr +i`, a read-only mount). A catalog
/// in WAL mode is read read-only through a pool of connections too, so that one long read
/// (`glimpse serve` counting a million images' unsearchable ones) does not hold every
/// other read (a search's entity lookups) behind it.
///
/// Thread-safe; share one instance.
public final class SQLiteEntityStore: EntityStore, Sendable {
    /// How a catalog file is opened.
    public typealias AccessMode = CatalogAccessMode

    let database: any DatabaseWriter
    /// The database file, or `:memory:`.
    public let path: String
    /// How it was opened.
    public let mode: AccessMode
    /// Whether the schema has the change log (v3); an older catalog opened read-only lacks it.
    var hasChangeLog: Bool { appliedMigrations.contains("v3-change-log") }
    /// Whether fingerprints carry their frame digest and whole-image quality (v4); an older
    /// catalog opened read-only lacks them.
    var hasCopyKeys: Bool { appliedMigrations.contains("v4-copy-keys") }
    /// The schema migrations applied to the database.
    let appliedMigrations: Set<String>

    /// Where the catalog lives, as messages name it.
    public var location: String { path }

    /// How image paths are stored (relative to the database's folder) and resolved.
    public var paths: CatalogPaths { CatalogPaths(databasePath: path) }

    /// Opens the catalog database at `path`.
    ///
    /// - ``AccessMode/readWrite``: creates it (and its folder) when missing, refuses a
    ///   non-empty database that is not a Glimpse catalog or is of a newer schema, then
    ///   applies pending migrations.
    /// - ``AccessMode/readOnly``: refuses a missing or empty file, one that is not a
    ///   Glimpse catalog or of a newer schema; opens it with SQLite's read-only flag, and
    ///   when that cannot work (no write access to the file or folder for WAL's shared
    ///   memory) as an immutable file.
    ///
    /// O(1) plus migration time.
    /// - Throws: ``CatalogStoreError/cannotOpen(_:reason:)``, ``CatalogStoreError/notACatalog(_:reason:)``,
    ///   ``CatalogStoreError/newerSchema(_:migration:)``.
    public init(path: String, mode: AccessMode = .readWrite) throws(CatalogStoreError) {
        self.path = path
        self.mode = mode
        switch mode {
        case .readWrite:
            let database: any DatabaseWriter
            do {
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                // Check what the file is before anything (WAL mode included) is written to it.
                if FileManager.default.fileExists(atPath: path) {
                    let probe = try DatabaseQueue(path: path, configuration: Self.configuration(readonly: true))
                    _ = try probe.read { db throws in try Self.checkCatalog(db, path: path, allowEmpty: true) }
                    try probe.close()
                }
                database = try DatabasePool(path: path, configuration: Self.configuration(readonly: false))
                try CatalogSchema.migrator.migrate(database)
                _ = try? database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            } catch let error as CatalogStoreError {
                throw error
            } catch {
                throw Self.openError(path, error)
            }
            self.database = database
            appliedMigrations = Set(CatalogSchema.migrationNames)
        case .readOnly:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .cannotOpen(path, reason: "no such file")
            }
            guard !isDirectory.boolValue else { throw .cannotOpen(path, reason: "is a folder") }
            let opened = try Self.openReadOnly(path)
            database = opened.0
            appliedMigrations = opened.1
        }
    }

    /// A private in-memory catalog (tests, throwaway runs).
    public init() throws(CatalogStoreError) {
        path = ":memory:"
        mode = .readWrite
        appliedMigrations = Set(CatalogSchema.migrationNames)
        do {
            database = try DatabaseQueue(configuration: Self.configuration(readonly: false))
            try CatalogSchema.migrator.migrate(database)
        } catch {
            throw .cannotOpen(path, reason: Self.message(error))
        }
    }

    /// Wraps an already-open database and migrates it (tests use this to start from an
    /// older schema).
    init(database: any DatabaseWriter, path: String) throws(CatalogStoreError) {
        self.path = path
        self.database = database
        mode = .readWrite
        appliedMigrations = Set(CatalogSchema.migrationNames)
        do { try CatalogSchema.migrator.migrate(database) } catch {
            throw .cannotOpen(path, reason: Self.message(error))
        }
    }

    static func configuration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.readonly = readonly
        return configuration
    }

    /// Opens read-only, falling back to SQLite's `immutable` URI parameter when the
    /// read-only open fails for want of write access (WAL needs its `-shm` file).
    private static func openReadOnly(_ path: String) throws(CatalogStoreError) -> (any DatabaseWriter, Set<String>) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? -1
        if size == 0 { throw .notACatalog(path, reason: "the file is empty") }
        var firstError: any Error
        do {
            // WAL mode (every catalog Glimpse writes): a pool of readers, which read side by
            // side; another journal mode: one connection.
            let reader: any DatabaseWriter = isInWALMode(path)
                ? try DatabasePool(path: path, configuration: configuration(readonly: true))
                : try DatabaseQueue(path: path, configuration: configuration(readonly: true))
            let applied = try reader.read { db throws in try checkCatalog(db, path: path, allowEmpty: false) }
            return (reader, applied)
        } catch let error as CatalogStoreError {
            throw error
        } catch {
            firstError = error
        }
        if let error = firstError as? DatabaseError, error.resultCode == .SQLITE_NOTADB {
            throw .notACatalog(path, reason: "not an SQLite database")
        }
        // Not writable: read it as an immutable file (no locks, no -shm). That ignores the
        // WAL, so only when the WAL holds nothing (writers here checkpoint after each
        // write). Debian's SQLite is built with SQLITE_USE_URI, so GRDB's path may be a URI.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.int64Value ?? 0
        if walSize > 0 {
            throw .cannotOpen(path, reason: "\(openError(path, firstError).reasonText); its write-ahead log \(path)-wal holds changes that need write access to be read (run any glimpse command with write access once)")
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let uri = "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
        do {
            let queue = try DatabaseQueue(path: uri, configuration: configuration(readonly: true))
            let applied = try queue.read { db throws in try checkCatalog(db, path: path, allowEmpty: false) }
            return (queue, applied)
        } catch let error as CatalogStoreError {
            throw error
        } catch {
            throw openError(path, firstError)
        }
    }

    /// Whether the SQLite file at `path` is in WAL mode: its header's read and write
    /// format versions (bytes 18 and 19) are 2. `false` for a file too short to tell or
    /// that cannot be read (the open that follows names why). O(1): reads 20 bytes.
    static func isInWALMode(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let header = try? file.read(upToCount: 20), header.count == 20 else { return false }
        return header[header.startIndex + 18] == 2 && header[header.startIndex + 19] == 2
    }

    /// Checks that `db` is a Glimpse catalog this build can read: Glimpse's tables, no
    /// migration it does not know. Returns the migrations applied. An empty database
    /// passes when `allowEmpty` (a new catalog is about to be made in it).
    @discardableResult
    static func checkCatalog(_ db: Database, path: String, allowEmpty: Bool) throws -> Set<String> {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        if tables.isEmpty {
            if allowEmpty { return [] }
            throw CatalogStoreError.notACatalog(path, reason: "an SQLite database without Glimpse's tables")
        }
        guard tables.contains("grdb_migrations"), tables.contains("catalog_meta") else {
            let shown = tables.sorted().prefix(5).joined(separator: ", ")
            throw CatalogStoreError.notACatalog(path, reason: "an SQLite database of another program (tables: \(shown)\(tables.count > 5 ? ", …" : ""))")
        }
        let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        if let unknown = applied.first(where: { !CatalogSchema.migrationNames.contains($0) }) {
            throw CatalogStoreError.newerSchema(path, migration: unknown)
        }
        guard try String.fetchOne(db, sql: "SELECT value FROM catalog_meta WHERE key = 'catalog_id'") != nil else {
            throw CatalogStoreError.notACatalog(path, reason: "its catalog_meta has no catalog id")
        }
        return Set(applied)
    }

    static func openError(_ path: String, _ error: any Error) -> CatalogStoreError {
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB {
            return .notACatalog(path, reason: "not an SQLite database")
        }
        return .cannotOpen(path, reason: message(error))
    }

    static func message(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error)" }
        if let error = error as? CatalogStoreError { return error.description }
        return "\(error)"
    }

    /// Runs a read, mapping errors to ``CatalogStoreError``.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(CatalogStoreError) -> T {
        do { return try database.read(body) } catch let error as CatalogStoreError { throw error } catch {
            throw .database("\(operation) in \(path)", reason: Self.message(error))
        }
    }

    /// ``read(_:_:)`` without holding the calling thread: the read runs on GRDB's own queue
    /// while the calling task is suspended (a long read must not occupy one of the few
    /// threads that serve requests).
    func readSuspending<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(CatalogStoreError) -> T {
        do { return try await database.read(body) } catch let error as CatalogStoreError { throw error } catch {
            throw .database("\(operation) in \(path)", reason: Self.message(error))
        }
    }

    /// Runs a write transaction, mapping errors to ``CatalogStoreError``; other errors
    /// thrown by `body` (cancellation, a progress callback's) pass through untouched.
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        guard mode == .readWrite else { throw CatalogStoreError.readOnly(path, operation: operation) }
        let result: T
        do { result = try database.write(body) } catch let error as DatabaseError {
            throw CatalogStoreError.database("\(operation) in \(path)", reason: Self.message(error))
        }
        foldWriteAheadLog()
        return result
    }

    /// Folds the WAL back into the file after a write (best effort: a busy reader just defers
    /// it), so the file alone is the catalog: copied, made read-only or opened immutable, it is whole.
    /// - Complexity: the pages written since the last checkpoint.
    func foldWriteAheadLog() {
        _ = try? database.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    // MARK: Version

    /// The catalog's id and generation.
    /// - Complexity: one small read.
    public func catalogVersion() throws(CatalogStoreError) -> CatalogVersion {
        try read("reading the catalog version") { db in try Self.version(db) }
    }

    static func meta(_ db: Database) throws -> [String: String] {
        Dictionary(try MetaRecord.fetchAll(db).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    static func version(_ db: Database) throws -> CatalogVersion {
        let meta = try meta(db)
        return CatalogVersion(
            catalogID: meta["catalog_id"] ?? "",
            generation: Int64(meta["generation"] ?? "") ?? 0,
            tokenKey: CatalogVersion.tokenKey(stored: meta["token_key"] ?? ""))
    }

    /// Moves to the next generation and records which entities it touched.
    static func bumpGeneration(_ db: Database, touching entities: [EntityReference]) throws {
        try db.execute(sql: "UPDATE catalog_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'generation'")
        let generation = try version(db).generation
        for entity in Set(entities) {
            try ChangeRecord(generation: generation, kind: entity.kind.rawValue, entityID: entity.id).insert(db, onConflict: .ignore)
        }
    }

    // MARK: Entities

    /// Largest number of ids bound in one `IN (…)` query.
    static let batch = 5_000

    /// The live landmarks among `ids`, in the order asked; unknown ids are skipped.
    /// - Complexity: one batched read, O(ids).
    public func landmarks(ids: [String]) throws(CatalogStoreError) -> [LandmarkEntity] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        return try read("reading landmarks") { db in
            var byID: [String: LandmarkEntity] = [:]
            for chunk in unique.chunked(Self.batch) {
                let records = try LandmarkRecord.filter(chunk.contains(LandmarkRecord.Columns.id) && LandmarkRecord.Columns.removalID == nil).fetchAll(db)
                for entity in try Self.landmarks(records, db, paths: paths) { byID[entity.id] = entity }
            }
            return unique.compactMap { byID[$0] }
        }
    }

    /// The live collections among `ids`, in the order asked; unknown ids are skipped.
    /// - Complexity: one batched read, O(ids).
    public func collections(ids: [String]) throws(CatalogStoreError) -> [CollectionEntity] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        return try read("reading collections") { db in
            var byID: [String: CollectionEntity] = [:]
            for chunk in unique.chunked(Self.batch) {
                let records = try CollectionRecord.filter(chunk.contains(CollectionRecord.Columns.id) && CollectionRecord.Columns.removalID == nil).fetchAll(db)
                for entity in try Self.collections(records, db, paths: paths) { byID[entity.id] = entity }
            }
            return unique.compactMap { byID[$0] }
        }
    }

    /// Every live landmark, by id.
    /// - Complexity: one read, O(landmarks).
    public func allLandmarks() throws(CatalogStoreError) -> [LandmarkEntity] {
        try read("reading landmarks") { db in
            try Self.landmarks(LandmarkRecord.filter(LandmarkRecord.Columns.removalID == nil).order(LandmarkRecord.Columns.id).fetchAll(db), db, paths: paths, all: true)
        }
    }

    /// Every live collection, by id.
    /// - Complexity: one read, O(collections).
    public func allCollections() throws(CatalogStoreError) -> [CollectionEntity] {
        try read("reading collections") { db in
            try Self.collections(CollectionRecord.filter(CollectionRecord.Columns.removalID == nil).order(CollectionRecord.Columns.id).fetchAll(db), db, paths: paths)
        }
    }

    /// The live collections that contain `landmarkID`, by id.
    /// - Complexity: one indexed read.
    public func collections(containing landmarkID: String) throws(CatalogStoreError) -> [CollectionEntity] {
        try read("reading collections") { db in
            let records = try CollectionRecord.fetchAll(db, sql: """
                SELECT DISTINCT c.* FROM collection c JOIN collection_member m ON m.collection_id = c.id
                JOIN landmark l ON l.id = m.landmark_id
                WHERE m.landmark_id = ? AND c.removal_id IS NULL AND l.removal_id IS NULL ORDER BY c.id
                """, arguments: [landmarkID])
            return try Self.collections(records, db, paths: paths)
        }
    }

    /// The live collections holding each of `landmarkIDs`, by landmark id (`[]` for none).
    /// - Complexity: one batched read of memberships, one of the collections, O(ids + memberships).
    public func collections(containingEach landmarkIDs: [String]) throws(CatalogStoreError) -> [String: [CollectionEntity]] {
        var seen = Set<String>()
        let unique = landmarkIDs.filter { seen.insert($0).inserted }
        return try read("reading collections") { db in
            var holding: [String: [String]] = [:]
            for chunk in unique.chunked(Self.batch) {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT DISTINCT m.landmark_id, c.id FROM collection c JOIN collection_member m ON m.collection_id = c.id
                    JOIN landmark l ON l.id = m.landmark_id
                    WHERE m.landmark_id IN (\(databaseQuestionMarks(count: chunk.count))) AND c.removal_id IS NULL AND l.removal_id IS NULL
                    ORDER BY m.landmark_id, c.id
                    """, arguments: StatementArguments(chunk))
                while let row = try rows.next() { holding[row[0], default: []].append(row[1]) }
            }
            let collectionIDs = Set(holding.values.joined()).sorted()
            var byID: [String: CollectionEntity] = [:]
            for chunk in collectionIDs.chunked(Self.batch) {
                let records = try CollectionRecord.filter(chunk.contains(CollectionRecord.Columns.id)).fetchAll(db)
                for entity in try Self.collections(records, db, paths: paths) { byID[entity.id] = entity }
            }
            return Dictionary(uniqueKeysWithValues: unique.map { ($0, (holding[$0] ?? []).compactMap { byID[$0] }) })
        }
    }

    // MARK: Fingerprints

    /// Every live landmark's fingerprints in one bulk read, to build the visual index from.
    /// - Complexity: O(views).
    public func fingerprintSnapshot() throws(CatalogStoreError) -> FingerprintSnapshot {
        try read("reading fingerprints") { db in
            let version = try Self.version(db)
            let rows = try Row.fetchCursor(db, sql: """
                SELECT i.landmark_id, i.path, f.data FROM landmark_image i
                JOIN landmark l ON l.id = i.landmark_id JOIN fingerprint f ON f.content_hash = i.content_hash
                WHERE l.removal_id IS NULL ORDER BY i.landmark_id, i.ordinal
                """)
            return FingerprintSnapshot(version: version, entries: try Self.entries(rows, paths: paths))
        }
    }

    /// Every live landmark's fingerprints in one read transaction, each pass a cursor over
    /// the same query (one landmark's fingerprints decoded at a time).
    /// - Complexity: O(images) per pass; memory O(one landmark).
    public func withFingerprintStream<T>(_ body: (FingerprintStream) throws -> T) throws -> T {
        let paths = paths
        do {
            return try database.read { db in
                let version = try Self.version(db)
                return try body(FingerprintStream(version: version) { visit in
                    let rows = try Row.fetchCursor(db, sql: """
                        SELECT i.landmark_id, i.path, f.data FROM landmark_image i
                        JOIN landmark l ON l.id = i.landmark_id JOIN fingerprint f ON f.content_hash = i.content_hash
                        WHERE l.removal_id IS NULL ORDER BY i.landmark_id, i.ordinal
                        """)
                    try Self.forEachEntry(rows, paths: paths, visit)
                })
            }
        } catch let error as DatabaseError {
            throw CatalogStoreError.database("reading fingerprints in \(path)", reason: Self.message(error))
        }
    }

    /// What changed after `generation` (landmarks, collections, fingerprints), from the change log.
    /// - Complexity: O(changes since `generation`).
    public func changes(since generation: Int64) throws(CatalogStoreError) -> CatalogChanges {
        try read("reading changes") { db in
            let version = try Self.version(db)
            let from = hasChangeLog ? Int64(try Self.meta(db)["change_log_from"] ?? "") ?? .max : .max
            guard generation >= from, generation <= version.generation else {
                return CatalogChanges(version: version, sinceGeneration: generation, isComplete: false, landmarkIDs: [], collectionIDs: [], fingerprints: [])
            }
            let changed = try ChangeRecord.filter(ChangeRecord.Columns.generation > generation).fetchAll(db)
            let landmarkIDs = Set(changed.filter { $0.kind == EntityKind.landmark.rawValue }.map(\.entityID)).sorted()
            let collectionIDs = Set(changed.filter { $0.kind == EntityKind.collection.rawValue }.map(\.entityID)).sorted()
            var entries: [FingerprintSnapshot.Entry] = []
            for chunk in landmarkIDs.chunked(Self.batch) {
                let placeholders = databaseQuestionMarks(count: chunk.count)
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT i.landmark_id, i.path, f.data FROM landmark_image i
                    JOIN landmark l ON l.id = i.landmark_id JOIN fingerprint f ON f.content_hash = i.content_hash
                    WHERE l.removal_id IS NULL AND i.landmark_id IN (\(placeholders)) ORDER BY i.landmark_id, i.ordinal
                    """, arguments: StatementArguments(chunk))
                entries += try Self.entries(rows, paths: paths)
            }
            return CatalogChanges(version: version, sinceGeneration: generation, isComplete: true,
                                  landmarkIDs: landmarkIDs, collectionIDs: collectionIDs, fingerprints: entries)
        }
    }

    /// Groups `(landmark_id, path, data)` rows, sorted by landmark, into snapshot entries.
    static func entries(_ rows: RowCursor, paths: CatalogPaths) throws -> [FingerprintSnapshot.Entry] {
        var entries: [FingerprintSnapshot.Entry] = []
        try forEachEntry(rows, paths: paths) { entries.append($0) }
        return entries
    }

    /// Groups `(landmark_id, path, data)` rows, sorted by landmark, into one entry per
    /// landmark, handed to `visit` as each is complete.
    static func forEachEntry(_ rows: RowCursor, paths: CatalogPaths, _ visit: (FingerprintSnapshot.Entry) throws -> Void) throws {
        var current: FingerprintSnapshot.Entry?
        while let row = try rows.next() {
            let id: String = row["landmark_id"]
            let data: Data = row["data"]
            guard let fingerprint = FingerprintCoding.decode(data) else {
                throw CatalogStoreError.corruptFingerprint(landmarkID: id, path: paths.resolved(row["path"]))
            }
            if current?.landmarkID == id {
                current?.fingerprints.append(fingerprint)
            } else {
                if let done = current { try visit(done) }
                current = .init(landmarkID: id, fingerprints: [fingerprint])
            }
        }
        if let done = current { try visit(done) }
    }

    // MARK: Record → entity (batched: one query per table, whatever the count)

    /// Entities for landmark records, in the records' order; their images and
    /// fingerprints in one query per batch (`all`: one query for the whole table).
    static func landmarks(_ records: [LandmarkRecord], _ db: Database, paths: CatalogPaths, all: Bool = false) throws -> [LandmarkEntity] {
        var images: [String: [ReferenceImage]] = [:]
        let sql = """
            SELECT i.landmark_id, i.path, f.data FROM landmark_image i LEFT JOIN fingerprint f ON f.content_hash = i.content_hash
            """
        func collect(_ rows: RowCursor) throws {
            while let row = try rows.next() {
                let data: Data? = row["data"]
                images[row["landmark_id"], default: []].append(ReferenceImage(path: paths.resolved(row["path"]), fingerprint: data.flatMap(FingerprintCoding.decode)))
            }
        }
        if all {
            try collect(Row.fetchCursor(db, sql: sql + " ORDER BY i.landmark_id, i.ordinal"))
        } else {
            for chunk in records.map(\.id).chunked(batch) {
                try collect(Row.fetchCursor(db, sql: sql + " WHERE i.landmark_id IN (\(databaseQuestionMarks(count: chunk.count))) ORDER BY i.landmark_id, i.ordinal",
                                            arguments: StatementArguments(chunk)))
            }
        }
        return try records.map { record in
            let keywords = try StoredStringList.values(record.keywords, column: "keywords of landmark \(record.id)")
            var location: GeoLocation?
            if let latitude = record.latitude, let longitude = record.longitude {
                location = GeoLocation(latitude: latitude, longitude: longitude)
            }
            return LandmarkEntity(
                id: record.id, name: record.name, continent: record.continent, description: record.description,
                keywords: keywords, location: location, referenceImages: images[record.id] ?? [])
        }
    }

    /// Entities for collection records, in the records' order: their live members and
    /// thumbnails in one query per batch.
    static func collections(_ records: [CollectionRecord], _ db: Database, paths: CatalogPaths) throws -> [CollectionEntity] {
        var members: [String: [String]] = [:]
        var thumbnails: [String: String] = [:]
        for chunk in records.map(\.id).chunked(batch) {
            let rows = try Row.fetchCursor(db, sql: """
                SELECT m.collection_id, m.landmark_id,
                  (SELECT i.path FROM landmark_image i WHERE i.landmark_id = m.landmark_id ORDER BY i.ordinal LIMIT 1) AS thumbnail
                FROM collection_member m JOIN landmark l ON l.id = m.landmark_id
                WHERE l.removal_id IS NULL AND m.collection_id IN (\(databaseQuestionMarks(count: chunk.count)))
                ORDER BY m.collection_id, m.ordinal
                """, arguments: StatementArguments(chunk))
            while let row = try rows.next() {
                let id: String = row["collection_id"]
                if members[id] == nil, let thumbnail: String = row["thumbnail"] { thumbnails[id] = paths.resolved(thumbnail) }
                members[id, default: []].append(row["landmark_id"])
            }
        }
        return records.map { record in
            CollectionEntity(id: record.id, name: record.name, landmarkIDs: members[record.id] ?? [], thumbnailPath: thumbnails[record.id])
        }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
