import GRDB

/// The SQLite schema of a catalog, under GRDB's `DatabaseMigrator`: each migration is
/// applied once, in order, in its own transaction, and recorded in `grdb_migrations`.
///
/// - `v1-catalog`: landmarks, their images, collections and members, removals (soft
///   delete), the file-state and fingerprint caches used by incremental indexing, and
///   `catalog_meta` (catalog id, generation, token key).
/// - `v2-index-runs`: a log of indexing runs and their counts.
enum CatalogSchema {
    /// Names of the migrations, in order.
    static let migrationNames = ["v1-catalog", "v2-index-runs"]

    /// The migrator for the current schema.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-catalog") { db in
            try db.execute(sql: """
                CREATE TABLE catalog_meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE removal (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    reason TEXT NOT NULL,
                    removed_at REAL NOT NULL,
                    undone_at REAL,
                    entities TEXT NOT NULL DEFAULT '[]'
                );
                CREATE TABLE landmark (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    continent TEXT,
                    description TEXT NOT NULL DEFAULT '',
                    keywords TEXT NOT NULL DEFAULT '[]',
                    latitude REAL,
                    longitude REAL,
                    position INTEGER NOT NULL,
                    removal_id INTEGER REFERENCES removal(id)
                );
                CREATE TABLE landmark_image (
                    landmark_id TEXT NOT NULL REFERENCES landmark(id) ON DELETE CASCADE,
                    ordinal INTEGER NOT NULL,
                    path TEXT NOT NULL,
                    content_hash TEXT,
                    PRIMARY KEY (landmark_id, ordinal)
                );
                CREATE INDEX landmark_image_path ON landmark_image(path);
                CREATE TABLE collection (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    removal_id INTEGER REFERENCES removal(id)
                );
                CREATE TABLE collection_member (
                    collection_id TEXT NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                    ordinal INTEGER NOT NULL,
                    landmark_id TEXT NOT NULL,
                    PRIMARY KEY (collection_id, ordinal)
                );
                CREATE INDEX collection_member_landmark ON collection_member(landmark_id);
                CREATE TABLE file_state (
                    path TEXT PRIMARY KEY NOT NULL,
                    size INTEGER NOT NULL,
                    mtime_ns INTEGER NOT NULL,
                    content_hash TEXT NOT NULL
                );
                CREATE TABLE fingerprint (
                    content_hash TEXT PRIMARY KEY NOT NULL,
                    data BLOB NOT NULL
                );
                """)
            var random = SystemRandomNumberGenerator()
            let catalogID = UUIDString.random(using: &random)
            try db.execute(
                sql: "INSERT INTO catalog_meta (key, value) VALUES ('catalog_id', ?), ('generation', '0'), ('token_key', ?)",
                arguments: [catalogID, "\(random.next() as UInt64):\(random.next() as UInt64)"])
        }
        migrator.registerMigration("v2-index-runs") { db in
            try db.execute(sql: """
                CREATE TABLE index_run (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    source TEXT NOT NULL,
                    finished_at REAL NOT NULL,
                    added INTEGER NOT NULL,
                    updated INTEGER NOT NULL,
                    unchanged INTEGER NOT NULL,
                    failed INTEGER NOT NULL,
                    generation INTEGER NOT NULL
                );
                """)
        }
        return migrator
    }
}

/// A random RFC 4122 version-4 UUID string (no Foundation dependency in the schema).
enum UUIDString {
    static func random(using generator: inout some RandomNumberGenerator) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { b in String(b >> 4, radix: 16) + String(b & 0x0F, radix: 16) }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }
}
