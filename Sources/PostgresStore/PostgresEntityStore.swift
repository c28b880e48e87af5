import Catalog
import Foundation
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import PostgresNIO

/// The shared ``EntityStore``: one PostgreSQL database (postgres-nio's `PostgresClient`, a
/// connection pool) that every indexer and every `glimpse serve` replica uses at once.
///
/// Same semantics as the SQLite store: every write is one transaction (writers take a
/// transaction-scoped advisory lock, so they run one at a time, as in SQLite); reads that
/// need several statements run in one `REPEATABLE READ` transaction, so they see one
/// generation. Every committed change announces its new generation on the `glimpse_catalog`
/// channel (`NOTIFY`), which replicas `LISTEN` to (``generationNotifications()``).
///
/// Thread-safe; share one instance; ``close()`` it when done.
public final class PostgresEntityStore: EntityStore, Sendable {
    let client: PostgresClient
    private let runner: Task<Void, Never>
    let logger: Logger
    /// The URL the store was opened with.
    public let url: PostgresConnectionURL
    /// How it was opened.
    public let mode: CatalogAccessMode
    /// The partition whose fingerprints this store reads (``fingerprintSnapshot()``,
    /// ``changes(since:)``), or `nil` for the whole catalog. Entity reads always see the
    /// whole catalog.
    public let partition: CatalogPartition?

    /// Where the catalog lives, as messages name it.
    public var location: String { url.description }

    /// Absolute image paths: the catalog has no folder of its own.
    public var paths: CatalogPaths { CatalogPaths(databasePath: ":memory:") }

    /// Connects to the database `url` names and, for ``CatalogAccessMode/readWrite``,
    /// applies pending migrations (once, under an advisory lock, even when several
    /// processes start together); for ``CatalogAccessMode/readOnly`` checks it is a Glimpse
    /// catalog of a schema this build knows and never writes.
    ///
    /// A catalog created (or migrated to partitions) here gets `partitionCount` partitions
    /// (default 1); an existing one must have that many when it is given. With `partition`,
    /// the store reads only that partition's fingerprints (a replica of one partition).
    ///
    /// - Throws: ``CatalogStoreError/cannotOpen(_:reason:)`` (bad URL, unreachable server,
    ///   authentication, a partition count or partition that is not the catalog's),
    ///   ``CatalogStoreError/notACatalog(_:reason:)``, ``CatalogStoreError/newerSchema(_:migration:)``.
    /// - Complexity: one connection and one transaction, plus migration time.
    public init(url text: String, mode: CatalogAccessMode, partitionCount: Int? = nil, partition: CatalogPartition? = nil) async throws(CatalogStoreError) {
        let url: PostgresConnectionURL
        do { url = try PostgresConnectionURL(text) } catch {
            throw .cannotOpen(Self.redacted(text), reason: error.reason)
        }
        self.url = url
        self.mode = mode
        self.partition = partition
        var logger = Logger(label: "glimpse.postgres")
        logger.logLevel = .critical
        self.logger = logger
        let client = PostgresClient(configuration: url.configuration, backgroundLogger: logger)
        self.client = client
        runner = Task { await client.run() }
        do {
            // One direct connection first: a wrong URL or a server that is down fails at once
            // with the real reason (the pool would keep retrying).
            let connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration, id: 0, logger: logger)
            do {
                try await PostgresSchema.prepare(
                    connection, location: url.description, mode: mode,
                    partitions: PostgresSchema.PartitionRequest(count: partitionCount, partition: partition), logger: logger)
                try? await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        } catch {
            runner.cancel()
            if let error = error as? CatalogStoreError { throw error }
            if let error = error as? PostgresTransactionError {
                if let closure = error.closureError as? CatalogStoreError { throw closure }
                throw .cannotOpen(url.description, reason: Self.message(error.closureError ?? error.beginError ?? error.commitError ?? error))
            }
            throw .cannotOpen(url.description, reason: Self.message(error))
        }
    }

    deinit { runner.cancel() }

    /// Closes the connections. The store must not be used afterwards.
    public func close() async {
        runner.cancel()
        _ = await runner.value
    }

    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    /// A short message for a postgres-nio error (the server's own message when it sent one).
    static func message(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            switch error.code {
            case .connectionError: return "cannot connect to the server (\(error.underlying.map { "\($0)" } ?? "connection refused"))"
            case .serverClosedConnection, .clientClosedConnection: return "the server closed the connection"
            default: return "\(error.code)"
            }
        }
        if let error = error as? CatalogStoreError { return error.description }
        return "\(error)"
    }

    /// Maps any error to ``CatalogStoreError`` (the store's own pass through).
    func storeError(_ operation: String, _ error: any Error) -> CatalogStoreError {
        if let error = error as? CatalogStoreError { return error }
        return .database("\(operation) in \(location)", reason: Self.message(error))
    }

    /// Runs `body` in one read-only `REPEATABLE READ` transaction: one consistent snapshot.
    func read<T: Sendable>(_ operation: String, _ body: (PostgresConnection) async throws -> T) async throws(CatalogStoreError) -> T {
        do {
            return try await client.withConnection { connection in
                try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                do {
                    let result = try await body(connection)
                    try await connection.query("COMMIT", logger: logger)
                    return result
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        } catch {
            throw storeError(operation, error)
        }
    }

    /// Runs `body` in one write transaction holding the writer lock; errors other than the
    /// database's (a progress callback's, cancellation) pass through untouched.
    func write<T: Sendable>(_ operation: String, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        guard mode == .readWrite else { throw CatalogStoreError.readOnly(location, operation: operation) }
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.writerLock))", logger: logger)
                return try await body(connection)
            }
        } catch let error as PSQLError {
            throw storeError("trying to " + operation, error)
        } catch let error as PostgresTransactionError {
            if let closure = error.closureError {
                if closure is PSQLError { throw storeError("trying to " + operation, closure) }
                throw closure
            }
            throw storeError("trying to " + operation, error.commitError ?? error.beginError ?? error.rollbackError ?? error)
        }
    }

    // MARK: Version

    /// The catalog's id and generation.
    /// - Complexity: one small read.
    public func catalogVersion() async throws(CatalogStoreError) -> CatalogVersion {
        do {
            return try await client.withConnection { connection in try await Self.version(connection, logger) }
        } catch { throw storeError("reading the catalog version", error) }
    }

    static func meta(_ connection: PostgresConnection, _ logger: Logger) async throws -> [String: String] {
        var meta: [String: String] = [:]
        for try await (key, value) in try await connection.query("SELECT key, value FROM catalog_meta", logger: logger).decode((String, String).self) {
            meta[key] = value
        }
        return meta
    }

    static func version(_ connection: PostgresConnection, _ logger: Logger) async throws -> CatalogVersion {
        let meta = try await meta(connection, logger)
        return CatalogVersion(
            catalogID: meta["catalog_id"] ?? "", generation: Int64(meta["generation"] ?? "") ?? 0,
            tokenKey: CatalogVersion.tokenKey(stored: meta["token_key"] ?? ""))
    }

    /// Moves to the next generation, records which entities it touched, and announces it
    /// (delivered when the transaction commits).
    static func bumpGeneration(_ connection: PostgresConnection, touching entities: [EntityReference], _ logger: Logger) async throws {
        let rows = try await connection.query(
            "UPDATE catalog_meta SET value = (value::bigint + 1)::text WHERE key = 'generation' RETURNING value::bigint", logger: logger)
        var generation: Int64 = 0
        for try await value in rows.decode(Int64.self) { generation = value }
        let unique = Array(Set(entities))
        if !unique.isEmpty {
            try await connection.query("""
                INSERT INTO change_log (generation, kind, entity_id)
                SELECT \(generation), k, i FROM unnest(\(unique.map(\.kind.rawValue))::text[], \(unique.map(\.id))::text[]) AS t(k, i)
                ON CONFLICT DO NOTHING
                """, logger: logger)
        }
        try await connection.query("SELECT pg_notify(\(PostgresSchema.channel), \(String(generation)))", logger: logger)
    }

    // MARK: Entities

    /// The live landmarks among `ids`, in the order asked; unknown ids are skipped.
    /// - Complexity: one batched read, O(ids).
    public func landmarks(ids: [String]) async throws(CatalogStoreError) -> [LandmarkEntity] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [] }
        let logger = self.logger
        let found = try await read("reading landmarks") { connection in
            try await Self.landmarks(connection, where: "l.id = ANY($1)", binds: unique, logger)
        }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return unique.compactMap { byID[$0] }
    }

    /// The live collections among `ids`, in the order asked; unknown ids are skipped.
    /// - Complexity: one batched read, O(ids).
    public func collections(ids: [String]) async throws(CatalogStoreError) -> [CollectionEntity] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [] }
        let logger = self.logger
        let found = try await read("reading collections") { connection in
            try await Self.collections(connection, where: "c.id = ANY($1)", binds: unique, logger)
        }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return unique.compactMap { byID[$0] }
    }

    /// Every live landmark, by id.
    /// - Complexity: one read, O(landmarks).
    public func allLandmarks() async throws(CatalogStoreError) -> [LandmarkEntity] {
        let logger = self.logger
        return try await read("reading landmarks") { connection in
            try await Self.landmarks(connection, where: "true", binds: String?.none, logger)
        }
    }

    /// Every live collection, by id.
    /// - Complexity: one read, O(collections).
    public func allCollections() async throws(CatalogStoreError) -> [CollectionEntity] {
        let logger = self.logger
        return try await read("reading collections") { connection in
            try await Self.collections(connection, where: "true", binds: String?.none, logger)
        }
    }

    /// The live collections that contain `landmarkID`, by id.
    /// - Complexity: one indexed read.
    public func collections(containing landmarkID: String) async throws(CatalogStoreError) -> [CollectionEntity] {
        let logger = self.logger
        return try await read("reading collections") { connection in
            try await Self.collections(connection, where: """
                c.id IN (SELECT m.collection_id FROM collection_member m JOIN landmark l ON l.id = m.landmark_id
                         WHERE m.landmark_id = $1 AND l.removal_id IS NULL)
                """, binds: landmarkID, logger)
        }
    }

    /// The live collections holding each of `landmarkIDs`, by landmark id (`[]` for none).
    /// - Complexity: two queries for the memberships and the collections, O(ids + memberships).
    public func collections(containingEach landmarkIDs: [String]) async throws(CatalogStoreError) -> [String: [CollectionEntity]] {
        var seen = Set<String>()
        let unique = landmarkIDs.filter { seen.insert($0).inserted }
        guard !unique.isEmpty else { return [:] }
        let logger = self.logger
        let (holding, found) = try await read("reading collections") { connection in
            var bindings = PostgresBindings()
            try bindings.append(unique)
            var holding: [String: [String]] = [:]
            let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT DISTINCT m.landmark_id, m.collection_id FROM collection_member m JOIN landmark l ON l.id = m.landmark_id
                JOIN collection c ON c.id = m.collection_id
                WHERE m.landmark_id = ANY($1) AND l.removal_id IS NULL AND c.removal_id IS NULL ORDER BY m.landmark_id, m.collection_id
                """, binds: bindings), logger: logger)
            for try await (landmark, collection) in rows.decode((String, String).self) { holding[landmark, default: []].append(collection) }
            let collectionIDs = Set(holding.values.joined()).sorted()
            let found = collectionIDs.isEmpty ? [] : try await Self.collections(connection, where: "c.id = ANY($1)", binds: collectionIDs, logger)
            return (holding, found)
        }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        return Dictionary(uniqueKeysWithValues: unique.map { ($0, (holding[$0] ?? []).compactMap { byID[$0] }) })
    }

    /// Live landmarks matching `condition` (on alias `l`, one optional bind `$1`), sorted
    /// by id, with their images and fingerprints: two queries, whatever the count.
    static func landmarks(_ connection: PostgresConnection, where condition: String, binds: (some PostgresEncodable & Sendable)?, _ logger: Logger) async throws -> [LandmarkEntity] {
        func query(_ sql: String) throws -> PostgresQuery {
            var bindings = PostgresBindings()
            if let binds { try bindings.append(binds) }
            return PostgresQuery(unsafeSQL: sql, binds: bindings)
        }
        var images: [String: [ReferenceImage]] = [:]
        let imageRows = try await connection.query(try query("""
            SELECT i.landmark_id, i.path, f.data FROM landmark_image i JOIN landmark l ON l.id = i.landmark_id
            LEFT JOIN fingerprint f ON f.content_hash = i.content_hash
            WHERE l.removal_id IS NULL AND \(condition) ORDER BY i.landmark_id, i.ordinal
            """), logger: logger)
        for try await (id, path, data) in imageRows.decode((String, String, ByteBuffer?).self) {
            let fingerprint = data.flatMap { FingerprintCoding.decode(Data(buffer: $0, byteTransferStrategy: .noCopy)) }
            images[id, default: []].append(ReferenceImage(path: path, fingerprint: fingerprint))
        }
        var out: [LandmarkEntity] = []
        let rows = try await connection.query(try query("""
            SELECT l.id, l.name, l.continent, l.description, l.keywords, l.latitude, l.longitude FROM landmark l
            WHERE l.removal_id IS NULL AND \(condition) ORDER BY l.id
            """), logger: logger)
        for try await (id, name, continent, description, keywordsJSON, latitude, longitude) in rows.decode((String, String, String?, String, String, Double?, Double?).self) {
            let keywords = try StoredStringList.values(keywordsJSON, column: "keywords of a landmark")
            var location: GeoLocation?
            if let latitude, let longitude { location = GeoLocation(latitude: latitude, longitude: longitude) }
            out.append(LandmarkEntity(id: id, name: name, continent: continent, description: description, keywords: keywords,
                                      location: location, referenceImages: images[id] ?? []))
        }
        return out
    }

    /// Live collections matching `condition` (alias `c`, one optional bind `$1`), sorted by
    /// id, with their live members and thumbnails: two queries, whatever the count.
    static func collections(_ connection: PostgresConnection, where condition: String, binds: (some PostgresEncodable & Sendable)?, _ logger: Logger) async throws -> [CollectionEntity] {
        func query(_ sql: String) throws -> PostgresQuery {
            var bindings = PostgresBindings()
            if let binds { try bindings.append(binds) }
            return PostgresQuery(unsafeSQL: sql, binds: bindings)
        }
        var members: [String: [String]] = [:]
        var thumbnails: [String: String] = [:]
        let memberRows = try await connection.query(try query("""
            SELECT m.collection_id, m.landmark_id,
              (SELECT i.path FROM landmark_image i WHERE i.landmark_id = m.landmark_id ORDER BY i.ordinal LIMIT 1)
            FROM collection_member m JOIN landmark l ON l.id = m.landmark_id JOIN collection c ON c.id = m.collection_id
            WHERE l.removal_id IS NULL AND c.removal_id IS NULL AND \(condition) ORDER BY m.collection_id, m.ordinal
            """), logger: logger)
        for try await (collectionID, landmarkID, thumbnail) in memberRows.decode((String, String, String?).self) {
            if members[collectionID] == nil, let thumbnail { thumbnails[collectionID] = thumbnail }
            members[collectionID, default: []].append(landmarkID)
        }
        var out: [CollectionEntity] = []
        let rows = try await connection.query(try query("SELECT c.id, c.name FROM collection c WHERE c.removal_id IS NULL AND \(condition) ORDER BY c.id"), logger: logger)
        for try await (id, name) in rows.decode((String, String).self) {
            out.append(CollectionEntity(id: id, name: name, landmarkIDs: members[id] ?? [], thumbnailPath: thumbnails[id]))
        }
        return out
    }

    // MARK: Fingerprints

    /// Images per aggregated row of the fingerprint snapshot query.
    static let snapshotChunk = 1_000

    /// The table of reference images this store's fingerprint reads go through: the
    /// partition's own table (PostgreSQL reads nothing of the others), or the whole one.
    var imageTable: String { partition.map(PostgresSchema.imageTable) ?? "landmark_image" }

    /// Every live landmark's fingerprints in one bulk read (of ``partition`` only, when
    /// the store was opened for one), to build the visual index from.
    /// - Complexity: O(views read).
    public func fingerprintSnapshot() async throws(CatalogStoreError) -> FingerprintSnapshot {
        let logger = self.logger
        return try await read("reading fingerprints") { connection in
            let version = try await Self.version(connection, logger)
            // One query for the whole catalog, its rows aggregated server-side into chunks of
            // \(snapshotChunk) images (three arrays per row): a few dozen rows to stream for a
            // million views instead of one per image, so the client's per-row cost vanishes.
            let rows = try await connection.query("""
                SELECT array_agg(landmark_id ORDER BY landmark_id, ordinal), array_agg(path ORDER BY landmark_id, ordinal),
                       array_agg(data ORDER BY landmark_id, ordinal)
                FROM (SELECT i.landmark_id, i.ordinal, i.path, f.data,
                             (row_number() OVER (ORDER BY i.landmark_id, i.ordinal) - 1) / \(Self.snapshotChunk) AS chunk
                      FROM \(unescaped: imageTable) i JOIN landmark l ON l.id = i.landmark_id JOIN fingerprint f ON f.content_hash = i.content_hash
                      WHERE l.removal_id IS NULL) t
                GROUP BY chunk ORDER BY chunk
                """, logger: logger)
            var entries: [FingerprintSnapshot.Entry] = []
            for try await (ids, paths, blobs) in rows.decode(([String], [String], [ByteBuffer]).self) {
                for index in ids.indices {
                    let id = ids[index]
                    guard let fingerprint = FingerprintCoding.decode(Data(buffer: blobs[index], byteTransferStrategy: .noCopy)) else {
                        throw CatalogStoreError.corruptFingerprint(landmarkID: id, path: paths[index])
                    }
                    if entries.last?.landmarkID == id {
                        entries[entries.count - 1].fingerprints.append(fingerprint)
                    } else {
                        entries.append(.init(landmarkID: id, fingerprints: [fingerprint]))
                    }
                }
            }
            return FingerprintSnapshot(version: version, entries: entries)
        }
    }

    /// What changed after `generation` (landmarks, collections, fingerprints), from the
    /// change log; for a store opened for a ``partition``, the landmarks of that partition only.
    /// - Complexity: O(changes since `generation`).
    public func changes(since generation: Int64) async throws(CatalogStoreError) -> CatalogChanges {
        let logger = self.logger
        return try await read("reading changes") { connection in
            let version = try await Self.version(connection, logger)
            let from = Int64(try await Self.meta(connection, logger)["change_log_from"] ?? "") ?? .max
            guard generation >= from, generation <= version.generation else {
                return CatalogChanges(version: version, sinceGeneration: generation, isComplete: false, landmarkIDs: [], collectionIDs: [], fingerprints: [])
            }
            var landmarkIDs = Set<String>(), collectionIDs = Set<String>()
            let changed = try await connection.query("SELECT kind, entity_id FROM change_log WHERE generation > \(generation)", logger: logger)
            for try await (kind, id) in changed.decode((String, String).self) {
                if kind == EntityKind.landmark.rawValue { landmarkIDs.insert(id) } else { collectionIDs.insert(id) }
            }
            var sortedLandmarks = landmarkIDs.sorted()
            if let partition = self.partition, !sortedLandmarks.isEmpty {
                sortedLandmarks = try await Self.landmarkIDs(sortedLandmarks, in: partition, connection, logger)
            }
            var entries: [FingerprintSnapshot.Entry] = []
            if !sortedLandmarks.isEmpty {
                let rows = try await connection.query("""
                    SELECT i.landmark_id, i.path, f.data FROM \(unescaped: imageTable) i
                    JOIN landmark l ON l.id = i.landmark_id JOIN fingerprint f ON f.content_hash = i.content_hash
                    WHERE l.removal_id IS NULL AND i.landmark_id = ANY(\(sortedLandmarks)) ORDER BY i.landmark_id, i.ordinal
                    """, logger: logger)
                entries = try await Self.entries(rows)
            }
            return CatalogChanges(version: version, sinceGeneration: generation, isComplete: true,
                                  landmarkIDs: sortedLandmarks, collectionIDs: collectionIDs.sorted(), fingerprints: entries)
        }
    }

    /// The ids among `ids` (sorted) that PostgreSQL's hash partitioning puts in `partition`
    /// (`satisfies_hash_partition`, the function behind the partitions' own constraints),
    /// in order: the same split as the rows stored, known or not.
    /// - Complexity: one query, O(ids).
    static func landmarkIDs(_ ids: [String], in partition: CatalogPartition, _ connection: PostgresConnection, _ logger: Logger) async throws -> [String] {
        var kept: [String] = []
        let rows = try await connection.query("""
            SELECT id FROM unnest(\(ids)::text[]) WITH ORDINALITY AS t(id, n)
            WHERE satisfies_hash_partition('landmark_image'::regclass, \(partition.count)::integer, \(partition.index)::integer, id) ORDER BY n
            """, logger: logger)
        for try await id in rows.decode(String.self) { kept.append(id) }
        return kept
    }

    /// Groups `(landmark_id, path, data)` rows, sorted by landmark, into snapshot entries.
    static func entries(_ rows: PostgresRowSequence) async throws -> [FingerprintSnapshot.Entry] {
        var entries: [FingerprintSnapshot.Entry] = []
        for try await (id, path, data) in rows.decode((String, String, ByteBuffer).self) {
            guard let fingerprint = FingerprintCoding.decode(Data(buffer: data, byteTransferStrategy: .noCopy)) else {
                throw CatalogStoreError.corruptFingerprint(landmarkID: id, path: path)
            }
            if entries.last?.landmarkID == id {
                entries[entries.count - 1].fingerprints.append(fingerprint)
            } else {
                entries.append(.init(landmarkID: id, fingerprints: [fingerprint]))
            }
        }
        return entries
    }

    // MARK: Change notifications

    /// The generations announced by committed changes, as they come (`LISTEN glimpse_catalog`
    /// on a connection of its own). The sequence ends with an error when the connection is
    /// lost; listen again to reconnect.
    public func changeNotifications() -> AsyncThrowingStream<Int64, any Error>? {
        generationNotifications()
    }

    /// The same stream as ``changeNotifications()``, never `nil`.
    public func generationNotifications() -> AsyncThrowingStream<Int64, any Error> {
        let client = self.client
        let logger = self.logger
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: PostgresSchema.channel) { notifications in
                            continuation.yield(-1)  // listening: the caller may check for missed changes now
                            for try await notification in notifications {
                                if let generation = Int64(notification.payload) { continuation.yield(generation) }
                            }
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
                _ = logger
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
