import Catalog
import Fingerprints
import GRDB

/// The SQLite schema of a catalog, under GRDB's `DatabaseMigrator`: each migration is
/// applied once, in order, in its own transaction, and recorded in `grdb_migrations`.
///
/// - `v1-catalog`: landmarks, their images, collections and members, removals (soft
///   delete), the file-state and fingerprint caches used by incremental indexing, and
///   `catalog_meta` (catalog id, generation, token key).
/// - `v2-index-runs`: a log of indexing runs and their counts.
/// - `v3-change-log`: which entities each generation touched (``EntityStore/changes(since:)``).
/// - `v4-copy-keys`: each fingerprint's ``FrameDigest`` and whole-image quality, computed
///   from the stored fingerprints, with the indexes that make an exact copy a lookup
///   (``EntityStore/landmarkIDs(copying:)``).
/// - `v5-quality-index`: fingerprints indexed by whole-image quality, so the unsearchable
///   images (``EntityStore/unsearchableCounts(minimumViewQuality:)``) are read on their own
///   instead of by a pass over every image.
enum CatalogSchema {
    /// Names of the migrations, in order.
    static let migrationNames = ["v1-catalog", "v2-index-runs", "v3-change-log", "v4-copy-keys", "v5-quality-index"]

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
            let identity = CatalogVersion.newIdentity(using: &random)
            let version = CatalogVersion(catalogID: identity.catalogID, generation: 0, tokenKey: identity.tokenKey)
            try db.execute(
                sql: "INSERT INTO catalog_meta (key, value) VALUES ('catalog_id', ?), ('generation', '0'), ('token_key', ?)",
                arguments: [version.catalogID, version.storedTokenKey])
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
        migrator.registerMigration("v3-change-log") { db in
            // The first generation the log covers: changes before it were not recorded.
            try db.execute(sql: """
                CREATE TABLE change_log (
                    generation INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    entity_id TEXT NOT NULL,
                    PRIMARY KEY (generation, kind, entity_id)
                );
                INSERT INTO catalog_meta (key, value)
                    SELECT 'change_log_from', value FROM catalog_meta WHERE key = 'generation';
                """)
        }
        migrator.registerMigration("v4-copy-keys") { db in
            try db.execute(sql: """
                ALTER TABLE fingerprint ADD COLUMN frame_digest INTEGER;
                ALTER TABLE fingerprint ADD COLUMN whole_quality INTEGER;
                """)
            // Computed from the stored fingerprints (a fingerprint that does not decode keeps
            // NULLs; the next index run recomputes it anyway), then written back.
            var keys: [(String, FrameDigest?, Int)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT content_hash, data FROM fingerprint")
            while let row = try rows.next() {
                guard let fingerprint = FingerprintCoding.decode(row["data"]) else { continue }
                keys.append((row["content_hash"], FrameDigest(of: fingerprint), fingerprint.wholeImageQuality))
            }
            let update = try db.makeStatement(sql: "UPDATE fingerprint SET frame_digest = ?, whole_quality = ? WHERE content_hash = ?")
            for (hash, digest, quality) in keys {
                try update.execute(arguments: [digest?.value, quality, hash])
            }
            try db.execute(sql: """
                CREATE INDEX fingerprint_frame_digest ON fingerprint(frame_digest);
                CREATE INDEX landmark_image_content_hash ON landmark_image(content_hash);
                """)
        }
        migrator.registerMigration("v5-quality-index") { db in
            try db.execute(sql: "CREATE INDEX fingerprint_whole_quality ON fingerprint(whole_quality)")
        }
        return migrator
    }
}
