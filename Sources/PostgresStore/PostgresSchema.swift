import Catalog
import Fingerprints
import Foundation
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import PostgresNIO

/// The PostgreSQL schema of a catalog: versioned migrations, each applied once, recorded in
/// `glimpse_migrations`, all in ONE transaction under a transaction-scoped advisory lock, so
/// that two processes starting together migrate once (the second waits, then finds nothing
/// to do) and a failed migration leaves the database as it was.
///
/// The tables mirror the SQLite catalog's (same names, same meaning), with `bytea`
/// fingerprints; `catalog_meta` holds the catalog id, generation, page-token key and
/// partition count. `landmark_image`, the table a replica loads its index from, is
/// hash-partitioned by landmark id (``partitionedImageTable(count:)``).
enum PostgresSchema {
    /// The advisory lock key of schema migrations ("glimpse" + 1).
    static let migrationLock: Int64 = 0x676c_696d_7073_6501
    /// The advisory lock key that serialises writers of the catalog (one writer at a time, as SQLite).
    static let writerLock: Int64 = 0x676c_696d_7073_6502
    /// The channel every committed change is announced on; the payload is the new generation.
    static let channel = "glimpse_catalog"

    /// One migration: a name and its statements.
    struct Migration: Sendable {
        var name: String
        var statements: [String]
    }

    /// Names of the migrations, in order.
    static var migrationNames: [String] { migrations.map(\.name) }

    static let migrations: [Migration] = [
        Migration(name: "v1-catalog", statements: [
            "CREATE TABLE catalog_meta (key text PRIMARY KEY, value text NOT NULL)",
            """
            CREATE TABLE removal (id bigserial PRIMARY KEY, reason text NOT NULL, removed_at double precision NOT NULL,
              undone_at double precision, entities text NOT NULL DEFAULT '[]')
            """,
            """
            CREATE TABLE landmark (id text PRIMARY KEY, name text NOT NULL, continent text, description text NOT NULL DEFAULT '',
              keywords text NOT NULL DEFAULT '[]', latitude double precision, longitude double precision, position integer NOT NULL,
              removal_id bigint REFERENCES removal(id))
            """,
            """
            CREATE TABLE landmark_image (landmark_id text NOT NULL REFERENCES landmark(id) ON DELETE CASCADE, ordinal integer NOT NULL,
              path text NOT NULL, content_hash text, PRIMARY KEY (landmark_id, ordinal))
            """,
            "CREATE INDEX landmark_image_path ON landmark_image(path)",
            "CREATE INDEX landmark_image_hash ON landmark_image(content_hash)",
            "CREATE TABLE collection (id text PRIMARY KEY, name text NOT NULL, position integer NOT NULL, removal_id bigint REFERENCES removal(id))",
            """
            CREATE TABLE collection_member (collection_id text NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
              ordinal integer NOT NULL, landmark_id text NOT NULL, PRIMARY KEY (collection_id, ordinal))
            """,
            "CREATE INDEX collection_member_landmark ON collection_member(landmark_id)",
            "CREATE TABLE file_state (path text PRIMARY KEY, size bigint NOT NULL, mtime_ns bigint NOT NULL, content_hash text NOT NULL)",
            "CREATE INDEX file_state_hash ON file_state(content_hash)",
            "CREATE TABLE fingerprint (content_hash text PRIMARY KEY, data bytea NOT NULL)",
            """
            CREATE TABLE index_run (id bigserial PRIMARY KEY, source text NOT NULL, finished_at double precision NOT NULL,
              added integer NOT NULL, updated integer NOT NULL, unchanged integer NOT NULL, failed integer NOT NULL, generation bigint NOT NULL)
            """,
            """
            CREATE TABLE change_log (generation bigint NOT NULL, kind text NOT NULL, entity_id text NOT NULL,
              PRIMARY KEY (generation, kind, entity_id))
            """,
        ]),
        // Each fingerprint's FrameDigest and whole-image quality (filled from the stored
        // fingerprints by fillCopyKeys), indexed so that an exact copy is a lookup.
        Migration(name: "v2-copy-keys", statements: [
            "ALTER TABLE fingerprint ADD COLUMN frame_digest bigint, ADD COLUMN whole_quality integer",
            "CREATE INDEX fingerprint_frame_digest ON fingerprint(frame_digest)",
        ]),
        // landmark_image rebuilt as a hash-partitioned table (statements from
        // partitionedImageTable(count:): the count is the catalog's, chosen at creation).
        Migration(name: "v3-partitions", statements: []),
        // The replicas of a partitioned catalog (ClusterDirectory): one row each, renewed by its heartbeat.
        Migration(name: "v4-cluster-members", statements: [
            """
            CREATE TABLE cluster_member (address text PRIMARY KEY, partition_index integer NOT NULL, partition_count integer NOT NULL,
              generation bigint NOT NULL, heartbeat_at timestamptz NOT NULL DEFAULT now())
            """,
        ]),
        // Fingerprints by whole-image quality: the unsearchable ones are read on their own
        // (unsearchableCounts) instead of by a pass over every image.
        Migration(name: "v5-quality-index", statements: [
            "CREATE INDEX fingerprint_whole_quality ON fingerprint(whole_quality)",
        ]),
    ]

    /// What a store asks of the catalog's partitions when it opens it.
    struct PartitionRequest: Sendable {
        /// How many partitions a catalog created (or migrated to partitions) now gets
        /// (`glimpse index --partitions`); for a partitioned catalog, the count it must
        /// already have. `nil`: 1 when creating, anything when it exists.
        var count: Int?
        /// The partition a replica loads; its count must be the catalog's.
        var partition: CatalogPartition?
    }

    /// The child table of `landmark_image` holding `partition`'s rows.
    static func imageTable(_ partition: CatalogPartition) -> String {
        "landmark_image_\(partition.count)_\(partition.index)"
    }

    /// Statements that replace `landmark_image` (partitioned or not) by a table
    /// hash-partitioned by landmark id into `count` partitions named by ``imageTable(_:)``,
    /// keeping every row, and record the count in `catalog_meta`. Run inside the caller's
    /// transaction: a failure leaves the old table.
    /// - Complexity: O(reference images) copied once.
    static func partitionedImageTable(count: Int) -> [String] {
        var statements = [
            "DROP INDEX landmark_image_path",
            "DROP INDEX landmark_image_hash",
            "ALTER TABLE landmark_image RENAME TO landmark_image_previous",
            "ALTER TABLE landmark_image_previous RENAME CONSTRAINT landmark_image_pkey TO landmark_image_previous_pkey",
            """
            CREATE TABLE landmark_image (landmark_id text NOT NULL REFERENCES landmark(id) ON DELETE CASCADE, ordinal integer NOT NULL,
              path text NOT NULL, content_hash text, PRIMARY KEY (landmark_id, ordinal)) PARTITION BY HASH (landmark_id)
            """,
        ]
        for index in 0..<count {
            statements.append("""
                CREATE TABLE landmark_image_\(count)_\(index) PARTITION OF landmark_image FOR VALUES WITH (MODULUS \(count), REMAINDER \(index))
                """)
        }
        statements += [
            "INSERT INTO landmark_image (landmark_id, ordinal, path, content_hash) SELECT landmark_id, ordinal, path, content_hash FROM landmark_image_previous",
            "DROP TABLE landmark_image_previous",
            "CREATE INDEX landmark_image_path ON landmark_image(path)",
            "CREATE INDEX landmark_image_hash ON landmark_image(content_hash)",
            "INSERT INTO catalog_meta (key, value) VALUES ('partitions', '\(count)') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        ]
        return statements
    }

    /// The catalog's partition count (`catalog_meta`; 1 before migration `v3-partitions`).
    static func partitionCount(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        var count = 1
        for try await value in try await connection.query("SELECT value FROM catalog_meta WHERE key = 'partitions'", logger: logger).decode(String.self) {
            count = Int(value) ?? 1
        }
        return count
    }

    /// Checks the database is a Glimpse catalog this build knows (read-only opens), or
    /// creates and migrates it (read-write opens), in one transaction under the lock.
    ///
    /// Then checks `partitions` against the catalog's partition count: a catalog created now
    /// gets the count asked for; an existing one with another count, or a partition of
    /// another count, is refused (``CatalogStoreError/cannotOpen(_:reason:)``).
    static func prepare(_ connection: PostgresConnection, location: String, mode: CatalogAccessMode, partitions: PartitionRequest = PartitionRequest(),
                        logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            if mode == .readWrite {
                try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            }
            let tables = try await connection.query(
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()", logger: logger)
            var existing: [String] = []
            for try await name in tables.decode(String.self) { existing.append(name) }
            var applied: [String] = []
            if existing.contains("glimpse_migrations") {
                for try await name in try await connection.query("SELECT name FROM glimpse_migrations", logger: logger).decode(String.self) {
                    applied.append(name)
                }
            } else if !existing.isEmpty {
                let shown = existing.sorted().prefix(5).joined(separator: ", ")
                throw CatalogStoreError.notACatalog(location, reason: "a database of another program (tables: \(shown)\(existing.count > 5 ? ", …" : ""))")
            } else if mode == .readOnly {
                throw CatalogStoreError.notACatalog(location, reason: "an empty database; build a catalog in it with 'glimpse index SOURCE --db URL'")
            }
            if let unknown = applied.first(where: { !migrationNames.contains($0) }) {
                throw CatalogStoreError.newerSchema(location, migration: unknown)
            }
            let pending = migrations.filter { !applied.contains($0.name) }
            guard mode == .readWrite, !pending.isEmpty else {
                if mode == .readOnly, !pending.isEmpty {
                    throw CatalogStoreError.cannotOpen(location, reason: "its schema is older than this glimpse (missing \(pending.map(\.name).joined(separator: ", "))); run 'glimpse index' on it once to migrate it")
                }
                try await checkPartitions(connection, location: location, partitions: partitions, logger: logger)
                return
            }
            if !existing.contains("glimpse_migrations") {
                try await connection.query("CREATE TABLE glimpse_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())", logger: logger)
            }
            for migration in pending {
                let statements = migration.name == "v3-partitions"
                    ? partitionedImageTable(count: partitions.count ?? 1) : migration.statements
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                if migration.name == "v2-copy-keys" { try await fillCopyKeys(connection, logger: logger) }
                if migration.name == "v1-catalog" {
                    var random = SystemRandomNumberGenerator()
                    let identity = CatalogVersion.newIdentity(using: &random)
                    let key = CatalogVersion(catalogID: identity.catalogID, generation: 0, tokenKey: identity.tokenKey).storedTokenKey
                    try await connection.query("""
                        INSERT INTO catalog_meta (key, value) VALUES ('catalog_id', \(identity.catalogID)), ('generation', '0'),
                        ('token_key', \(key)), ('change_log_from', '0')
                        """, logger: logger)
                }
                try await connection.query("INSERT INTO glimpse_migrations (name) VALUES (\(migration.name))", logger: logger)
            }
            try await checkPartitions(connection, location: location, partitions: partitions, logger: logger)
        }
    }

    /// Refuses a partition count or partition that is not the catalog's.
    static func checkPartitions(_ connection: PostgresConnection, location: String, partitions: PartitionRequest, logger: Logger) async throws {
        let count = try await partitionCount(connection, logger: logger)
        if let asked = partitions.count, asked != count {
            throw CatalogStoreError.cannotOpen(location, reason: "the catalog has \(count) partition\(count == 1 ? "" : "s"), not \(asked) (fixed when it was created; 'glimpse catalog repartition --partitions \(asked)' changes it offline)")
        }
        if let partition = partitions.partition, partition.count != count {
            throw CatalogStoreError.cannotOpen(location, reason: "partition \(partition) asked, but the catalog has \(count) partition\(count == 1 ? "" : "s") (0/\(count) to \(count - 1)/\(count))")
        }
    }

    /// Computes every stored fingerprint's frame digest and whole-image quality (migration
    /// `v2-copy-keys`), inside the migration's transaction. A fingerprint that does not
    /// decode keeps NULLs (the next index run recomputes it).
    /// - Complexity: O(fingerprints): one read, one `unnest` update per 10,000.
    static func fillCopyKeys(_ connection: PostgresConnection, logger: Logger) async throws {
        var hashes: [String] = [], digests: [Int64] = [], qualities: [Int] = []
        for try await (hash, data) in try await connection.query("SELECT content_hash, data FROM fingerprint", logger: logger)
            .decode((String, ByteBuffer).self) {
            guard let fingerprint = FingerprintCoding.decode(Data(buffer: data)), let digest = FrameDigest(of: fingerprint) else { continue }
            hashes.append(hash)
            digests.append(digest.value)
            qualities.append(fingerprint.wholeImageQuality)
        }
        for start in stride(from: 0, to: hashes.count, by: 10_000) {
            let end = min(start + 10_000, hashes.count)
            try await connection.query("""
                UPDATE fingerprint f SET frame_digest = u.digest, whole_quality = u.quality
                FROM unnest(\(Array(hashes[start..<end]))::text[], \(Array(digests[start..<end]))::bigint[], \(Array(qualities[start..<end]))::integer[])
                  AS u(hash, digest, quality)
                WHERE f.content_hash = u.hash
                """, logger: logger)
        }
    }
}
