import Foundation
import Fingerprints
import GRDB

/// The default ``EntityStore``: one SQLite file through GRDB, in WAL mode (a
/// `DatabasePool`: readers never block the writer), with its schema under migrations
/// (``CatalogSchema``). Every write is one transaction, so a crash or `kill -9` at any
/// moment leaves either the old or the new state.
///
/// Thread-safe; share one instance.
public final class SQLiteEntityStore: EntityStore, Sendable {
    let database: any DatabaseWriter
    /// The database file, or `:memory:`.
    public let path: String
    /// How image paths are stored (relative to the database's folder) and resolved.
    public var paths: CatalogPaths { CatalogPaths(databasePath: path) }

    /// Opens (creating if needed) the catalog database at `path` and applies pending
    /// migrations. O(1) plus migration time.
    ///
    /// - Throws: ``CatalogStoreError/cannotOpen(_:reason:)``.
    public init(path: String) throws(CatalogStoreError) {
        self.path = path
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            database = try DatabasePool(path: path, configuration: Self.configuration)
            try CatalogSchema.migrator.migrate(database)
        } catch {
            throw .cannotOpen(path, reason: Self.message(error))
        }
    }

    /// A private in-memory catalog (tests, throwaway runs).
    public init() throws(CatalogStoreError) {
        path = ":memory:"
        do {
            database = try DatabaseQueue(configuration: Self.configuration)
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
        do { try CatalogSchema.migrator.migrate(database) } catch {
            throw .cannotOpen(path, reason: Self.message(error))
        }
    }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        return configuration
    }

    static func message(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error)" }
        if let error = error as? CatalogStoreError { return error.description }
        return "\(error)"
    }

    /// Runs a read, mapping errors to ``CatalogStoreError``.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(CatalogStoreError) -> T {
        do { return try database.read(body) } catch let error as CatalogStoreError { throw error } catch {
            throw .database(operation, reason: Self.message(error))
        }
    }

    /// Runs a write transaction, mapping errors to ``CatalogStoreError``; other errors
    /// thrown by `body` (cancellation) pass through untouched.
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        do { return try database.write(body) } catch let error as DatabaseError {
            throw CatalogStoreError.database(operation, reason: Self.message(error))
        }
    }

    // MARK: EntityStore reads

    public func catalogVersion() throws(CatalogStoreError) -> CatalogVersion {
        try read("reading the catalog version") { db in try Self.version(db) }
    }

    static func version(_ db: Database) throws -> CatalogVersion {
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM catalog_meta") {
            meta[row["key"]] = row["value"]
        }
        let keyParts = (meta["token_key"] ?? "").split(separator: ":").compactMap { UInt64($0) }
        return CatalogVersion(
            catalogID: meta["catalog_id"] ?? "",
            generation: Int64(meta["generation"] ?? "") ?? 0,
            tokenKey: keyParts.count == 2 ? SIMD2(keyParts[0], keyParts[1]) : .zero)
    }

    static func bumpGeneration(_ db: Database) throws {
        try db.execute(sql: "UPDATE catalog_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'generation'")
    }

    public func landmark(id: String) throws(CatalogStoreError) -> LandmarkEntity? {
        try landmarks(ids: [id]).first
    }

    public func collection(id: String) throws(CatalogStoreError) -> CollectionEntity? {
        try collections(ids: [id]).first
    }

    public func landmarks(ids: [String]) throws(CatalogStoreError) -> [LandmarkEntity] {
        try read("reading landmarks") { db in
            var seen = Set<String>()
            var out: [LandmarkEntity] = []
            for id in ids where seen.insert(id).inserted {
                if let row = try Row.fetchOne(db, sql: "SELECT * FROM landmark WHERE id = ? AND removal_id IS NULL", arguments: [id]) {
                    out.append(try self.landmark(row, db))
                }
            }
            return out
        }
    }

    public func collections(ids: [String]) throws(CatalogStoreError) -> [CollectionEntity] {
        try read("reading collections") { db in
            var seen = Set<String>()
            var out: [CollectionEntity] = []
            for id in ids where seen.insert(id).inserted {
                if let row = try Row.fetchOne(db, sql: "SELECT id, name FROM collection WHERE id = ? AND removal_id IS NULL", arguments: [id]) {
                    out.append(try self.collection(row, db))
                }
            }
            return out
        }
    }

    public func allLandmarks() throws(CatalogStoreError) -> [LandmarkEntity] {
        try read("reading landmarks") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM landmark WHERE removal_id IS NULL ORDER BY id").map { try self.landmark($0, db) }
        }
    }

    public func allCollections() throws(CatalogStoreError) -> [CollectionEntity] {
        try read("reading collections") { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM collection WHERE removal_id IS NULL ORDER BY id").map { try self.collection($0, db) }
        }
    }

    public func collections(containing landmarkID: String) throws(CatalogStoreError) -> [CollectionEntity] {
        try read("reading collections") { db in
            try Row.fetchAll(db, sql: """
                SELECT DISTINCT c.id, c.name FROM collection c JOIN collection_member m ON m.collection_id = c.id
                JOIN landmark l ON l.id = m.landmark_id
                WHERE m.landmark_id = ? AND c.removal_id IS NULL AND l.removal_id IS NULL ORDER BY c.id
                """, arguments: [landmarkID]).map { try self.collection($0, db) }
        }
    }

    public func fingerprintSnapshot() throws(CatalogStoreError) -> FingerprintSnapshot {
        try read("reading fingerprints") { db in
            let version = try Self.version(db)
            var entries: [FingerprintSnapshot.Entry] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT i.landmark_id, i.path, f.data FROM landmark_image i
                JOIN landmark l ON l.id = i.landmark_id JOIN fingerprint f ON f.content_hash = i.content_hash
                WHERE l.removal_id IS NULL ORDER BY i.landmark_id, i.ordinal
                """)
            while let row = try rows.next() {
                let id: String = row["landmark_id"]
                let data: Data = row["data"]
                guard let fingerprint = FingerprintCoding.decode(data) else {
                    throw CatalogStoreError.corruptFingerprint(landmarkID: id, path: paths.resolved(row["path"]))
                }
                if entries.last?.landmarkID == id {
                    entries[entries.count - 1].fingerprints.append(fingerprint)
                } else {
                    entries.append(.init(landmarkID: id, fingerprints: [fingerprint]))
                }
            }
            return FingerprintSnapshot(version: version, entries: entries)
        }
    }

    // MARK: Row mapping

    func landmark(_ row: Row, _ db: Database) throws -> LandmarkEntity {
        let paths = self.paths
        let id: String = row["id"]
        let keywordsJSON: String = row["keywords"]
        let keywords = (try? JSONDecoder().decode([String].self, from: Data(keywordsJSON.utf8))) ?? []
        var location: GeoLocation?
        if let latitude: Double = row["latitude"], let longitude: Double = row["longitude"] {
            location = GeoLocation(latitude: latitude, longitude: longitude)
        }
        var images: [ReferenceImage] = []
        for image in try Row.fetchAll(db, sql: """
            SELECT i.path, f.data FROM landmark_image i LEFT JOIN fingerprint f ON f.content_hash = i.content_hash
            WHERE i.landmark_id = ? ORDER BY i.ordinal
            """, arguments: [id]) {
            let data: Data? = image["data"]
            images.append(ReferenceImage(path: paths.resolved(image["path"]), fingerprint: data.flatMap(FingerprintCoding.decode)))
        }
        return LandmarkEntity(
            id: id, name: row["name"], continent: row["continent"], description: row["description"],
            keywords: keywords, location: location, referenceImages: images)
    }

    func collection(_ row: Row, _ db: Database) throws -> CollectionEntity {
        let id: String = row["id"]
        let members = try String.fetchAll(db, sql: """
            SELECT m.landmark_id FROM collection_member m JOIN landmark l ON l.id = m.landmark_id
            WHERE m.collection_id = ? AND l.removal_id IS NULL ORDER BY m.ordinal
            """, arguments: [id])
        var thumbnail: String?
        if let first = members.first {
            thumbnail = try String.fetchOne(db, sql: "SELECT path FROM landmark_image WHERE landmark_id = ? ORDER BY ordinal LIMIT 1", arguments: [first])
                .map(paths.resolved)
        }
        return CollectionEntity(id: id, name: row["name"], landmarkIDs: members, thumbnailPath: thumbnail)
    }
}
