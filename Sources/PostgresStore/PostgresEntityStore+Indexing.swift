import Catalog
import Foundation
import Fingerprints
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import PostgresNIO

/// The store's side of indexing on PostgreSQL: the caches (small transactions while
/// fingerprinting) and the ONE transaction that replaces the catalog's content, written
/// with set-based statements (`unnest` of arrays, `jsonb_to_recordset`): a constant number
/// of round trips per batch of entities, not one per row.
extension PostgresEntityStore {
    /// Entities written per batch of statements inside the commit transaction.
    static let commitBatch = 2_000

    /// The file states and saved fingerprints of earlier runs (unchanged files are skipped):
    /// of every file, or of `paths` alone (an add run) and the fingerprints their states and
    /// catalog images name.
    /// - Complexity: O(files), or O(paths) with the paths bound as one array.
    public func indexingState(paths: [String]?) async throws(CatalogStoreError) -> IndexingState {
        let logger = self.logger
        return try await read("reading index state") { connection in
            // The whole table, or the rows whose `column` is among `ids` (bound as one array).
            func query(_ select: String, column: String, ids: [String]?, condition: String = "") -> PostgresQuery {
                guard let ids else { return PostgresQuery(unsafeSQL: select + (condition.isEmpty ? "" : " WHERE " + condition)) }
                var binds = PostgresBindings()
                binds.append(ids)
                return PostgresQuery(unsafeSQL: select + " WHERE \(column) = ANY($1)" + (condition.isEmpty ? "" : " AND " + condition), binds: binds)
            }
            var states: [String: FileState] = [:]
            let stateRows = try await connection.query(query("SELECT path, size, mtime_ns, content_hash FROM file_state", column: "path", ids: paths), logger: logger)
            for try await (path, size, mtime, hash) in stateRows.decode((String, Int64, Int64, String).self) {
                states[path] = FileState(path: path, size: size, mtimeNanoseconds: mtime, contentHash: ContentHash(hex: hash))
            }
            var hashes: [String: ContentHash] = [:]
            let imageRows = try await connection.query(query("SELECT path, content_hash FROM landmark_image", column: "path", ids: paths,
                                                             condition: "content_hash IS NOT NULL"), logger: logger)
            for try await (path, hash) in imageRows.decode((String, String).self) { hashes[path] = ContentHash(hex: hash) }
            // The saved fingerprints' layout versions: all, or those of the hashes just read.
            let wanted = paths.map { _ in Set(states.values.map(\.contentHash.hex)).union(hashes.values.map(\.hex)).sorted() }
            var cached: [ContentHash: UInt16] = [:]
            var qualities: [ContentHash: Int] = [:]
            let cachedRows = try await connection.query(query("SELECT content_hash, substring(data FROM 1 FOR 5), whole_quality FROM fingerprint",
                                                              column: "content_hash", ids: wanted), logger: logger)
            for try await (hash, header, best) in cachedRows.decode((String, ByteBuffer, Int?).self) {
                cached[ContentHash(hex: hash)] = FingerprintCoding.layoutVersion(Data(buffer: header)) ?? 0
                if let best { qualities[ContentHash(hex: hash)] = best }
            }
            return IndexingState(fileStates: states, catalogHashes: hashes, cachedLayoutVersions: cached, cachedWholeImageQualities: qualities)
        }
    }

    /// Saves fingerprints computed so far outside the run's transaction, so a killed run reuses them.
    /// - Complexity: O(states).
    public func saveFileStates(_ states: [FileState], fingerprints: [ContentHash: Fingerprint]) async throws(CatalogStoreError) {
        guard !states.isEmpty || !fingerprints.isEmpty else { return }
        let logger = self.logger
        let entries = Array(fingerprints)
        let hashes = entries.map(\.key.hex)
        let blobs = entries.map { ByteBuffer(data: FingerprintCoding.encode($0.value)) }
        let digests = entries.map { FrameDigest(of: $0.value)?.value ?? 0 } // 0: no view (never looked up)
        let qualities = entries.map(\.value.wholeImageQuality)
        do {
            try await write("save fingerprints") { connection in
                // At most 1,000 fingerprints (about 4 MB) per statement.
                for start in stride(from: 0, to: hashes.count, by: 1_000) {
                    let end = min(start + 1_000, hashes.count)
                    let someHashes = Array(hashes[start..<end]), someBlobs = Array(blobs[start..<end])
                    let someDigests = Array(digests[start..<end]), someQualities = Array(qualities[start..<end])
                    try await connection.query("""
                        INSERT INTO fingerprint (content_hash, data, frame_digest, whole_quality)
                        SELECT * FROM unnest(\(someHashes)::text[], \(someBlobs)::bytea[], \(someDigests)::bigint[], \(someQualities)::integer[])
                        ON CONFLICT (content_hash) DO UPDATE
                        SET data = EXCLUDED.data, frame_digest = EXCLUDED.frame_digest, whole_quality = EXCLUDED.whole_quality
                        """, logger: logger)
                }
                if !states.isEmpty {
                    try await connection.query("""
                        INSERT INTO file_state (path, size, mtime_ns, content_hash)
                        SELECT * FROM unnest(\(states.map(\.path))::text[], \(states.map(\.size))::bigint[],
                                             \(states.map(\.mtimeNanoseconds))::bigint[], \(states.map(\.contentHash.hex))::text[])
                        ON CONFLICT (path) DO UPDATE SET size = EXCLUDED.size, mtime_ns = EXCLUDED.mtime_ns, content_hash = EXCLUDED.content_hash
                        """, logger: logger)
                }
            }
        } catch { throw storeError("saving fingerprints", error) }
    }

    /// A landmark row as JSON, for `jsonb_to_recordset` (nulls included).
    private struct LandmarkRow: Encodable {
        var id: String, name: String, continent: String?, description: String, keywords: String
        var latitude: Double?, longitude: Double?, position: Int
    }

    /// Writes one index run in a single transaction: all of it or none (see
    /// ``EntityStore/commit(_:hashes:sourceDescription:report:mode:progress:)``).
    /// - Complexity: replace: O(catalog entities); add: O(content entities + their images),
    ///   in set-based statements over the content's ids.
    public func commit(
        _ content: CatalogContent, hashes: [String: ContentHash], sourceDescription: String, report: IndexReport,
        mode: IndexMode, progress: (IndexProgress) throws -> Void
    ) async throws -> IndexReport {
        let logger = self.logger
        return try await write("write the catalog") { connection in
            var report = report
            // An add run reads only the entities it names; a replace run, the whole catalog.
            let scope = mode == .add ? EntityScope(content) : nil
            let digestsBefore = try await Self.entityDigests(connection, logger, scope: scope)
            // Each existing entity (of the scope) and its removal reason ("" when live), one query per kind.
            func existingReasons(_ table: String, ids: [String]?) async throws -> [String: String] {
                var reasons: [String: String] = [:]
                var query = PostgresQuery(unsafeSQL: "SELECT t.id, COALESCE(r.reason, '') FROM \(table) t LEFT JOIN removal r ON r.id = t.removal_id")
                if let ids { query = "SELECT t.id, COALESCE(r.reason, '') FROM \(unescaped: table) t LEFT JOIN removal r ON r.id = t.removal_id WHERE t.id = ANY(\(ids))" }
                let rows = try await connection.query(query, logger: logger)
                for try await (id, reason) in rows.decode((String, String).self) { reasons[id] = reason }
                return reasons
            }
            let existingLandmarks = try await existingReasons("landmark", ids: scope?.landmarkIDs)
            let existingCollections = try await existingReasons("collection", ids: scope?.collectionIDs)
            // An add run places new entities after the existing ones and keeps existing positions.
            func nextPosition(_ table: String) async throws -> Int {
                guard mode == .add else { return 0 }
                let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT COALESCE(MAX(position) + 1, 0)::bigint FROM \(table)"), logger: logger)
                for try await next in rows.decode(Int64.self) { return Int(next) }
                return 0
            }
            var newLandmarkPosition = try await nextPosition("landmark")
            var newCollectionPosition = try await nextPosition("collection")
            let positionUpdate = mode == .add ? "" : ", position = EXCLUDED.position"
            // The images the add run's landmarks had, whose cache rows may be orphaned below.
            var earlierPaths: [String] = [], earlierHashes: [String] = []
            if let scope {
                let rows = try await connection.query("SELECT path, content_hash FROM landmark_image WHERE landmark_id = ANY(\(scope.landmarkIDs))", logger: logger)
                for try await (path, hash) in rows.decode((String, String?).self) {
                    earlierPaths.append(path)
                    if let hash { earlierHashes.append(hash) }
                }
            }
            let total = content.landmarks.count + content.collections.count
            var done = 0
            var restored: [EntityReference] = []
            let encoder = JSONEncoder()

            let positioned = Array(content.landmarks.enumerated())
            for start in stride(from: 0, to: positioned.count, by: Self.commitBatch) {
                let batch = positioned[start..<min(start + Self.commitBatch, positioned.count)]
                let rows = batch.map { position, landmark in
                    var placed = position
                    if mode == .add && existingLandmarks[landmark.id] == nil {
                        placed = newLandmarkPosition
                        newLandmarkPosition += 1
                    }
                    return LandmarkRow(id: landmark.id, name: landmark.name, continent: landmark.continent, description: landmark.description,
                                       keywords: StoredStringList.text(landmark.keywords),
                                       latitude: landmark.location?.latitude, longitude: landmark.location?.longitude, position: placed)
                }
                let json = String(decoding: try encoder.encode(rows), as: UTF8.self)
                try await connection.query("""
                    INSERT INTO landmark (id, name, continent, description, keywords, latitude, longitude, position)
                    SELECT id, name, continent, description, keywords, latitude, longitude, position FROM jsonb_to_recordset(\(json)::jsonb)
                      AS t(id text, name text, continent text, description text, keywords text, latitude double precision, longitude double precision, position integer)
                    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, continent = EXCLUDED.continent, description = EXCLUDED.description,
                      keywords = EXCLUDED.keywords, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude\(unescaped: positionUpdate)
                    """, logger: logger)
                let ids = batch.map(\.element.id)
                let revived = ids.filter { CatalogRules.sourceRevives(removedFor: existingLandmarks[$0]) }
                if !revived.isEmpty {
                    try await connection.query("UPDATE landmark SET removal_id = NULL WHERE id = ANY(\(revived))", logger: logger)
                    restored += revived.map { EntityReference(kind: .landmark, id: $0) }
                }
                try await connection.query("DELETE FROM landmark_image WHERE landmark_id = ANY(\(ids))", logger: logger)
                var imageLandmarks: [String] = [], ordinals: [Int32] = [], paths: [String] = [], imageHashes: [String] = []
                for (_, landmark) in batch {
                    for (ordinal, image) in landmark.referenceImages.enumerated() {
                        imageLandmarks.append(landmark.id)
                        ordinals.append(Int32(ordinal))
                        paths.append(image.path)
                        imageHashes.append(hashes[image.path]?.hex ?? "")
                    }
                }
                if !paths.isEmpty {
                    try await connection.query("""
                        INSERT INTO landmark_image (landmark_id, ordinal, path, content_hash)
                        SELECT l, o, p, NULLIF(h, '') FROM unnest(\(imageLandmarks)::text[], \(ordinals)::integer[], \(paths)::text[], \(imageHashes)::text[]) AS t(l, o, p, h)
                        """, logger: logger)
                }
                for _ in batch {
                    done += 1
                    try progress(IndexProgress(phase: .writing, completed: done, total: total))
                }
            }

            // An add run's collections keep their members and gain the source's.
            var earlierMembers: [String: [String]] = [:]
            if let scope {
                let rows = try await connection.query("""
                    SELECT collection_id, landmark_id FROM collection_member WHERE collection_id = ANY(\(scope.collectionIDs)) ORDER BY collection_id, ordinal
                    """, logger: logger)
                for try await (collection, member) in rows.decode((String, String).self) { earlierMembers[collection, default: []].append(member) }
            }
            let positionedCollections = Array(content.collections.enumerated())
            for start in stride(from: 0, to: positionedCollections.count, by: Self.commitBatch) {
                let batch = positionedCollections[start..<min(start + Self.commitBatch, positionedCollections.count)]
                let ids = batch.map(\.element.id)
                let positions = batch.map { position, collection in
                    guard mode == .add, existingCollections[collection.id] == nil else { return Int32(position) }
                    defer { newCollectionPosition += 1 }
                    return Int32(newCollectionPosition)
                }
                try await connection.query("""
                    INSERT INTO collection (id, name, position)
                    SELECT * FROM unnest(\(ids)::text[], \(batch.map(\.element.name))::text[], \(positions)::integer[])
                    ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name\(unescaped: positionUpdate)
                    """, logger: logger)
                let revived = ids.filter { CatalogRules.sourceRevives(removedFor: existingCollections[$0]) }
                if !revived.isEmpty {
                    try await connection.query("UPDATE collection SET removal_id = NULL WHERE id = ANY(\(revived))", logger: logger)
                    restored += revived.map { EntityReference(kind: .collection, id: $0) }
                }
                try await connection.query("DELETE FROM collection_member WHERE collection_id = ANY(\(ids))", logger: logger)
                var memberCollections: [String] = [], ordinals: [Int32] = [], members: [String] = []
                for (_, collection) in batch {
                    let written = mode == .add
                        ? CatalogRules.addedMembers(existing: earlierMembers[collection.id] ?? [], source: collection.landmarkIDs) : collection.landmarkIDs
                    for (ordinal, member) in written.enumerated() {
                        memberCollections.append(collection.id)
                        ordinals.append(Int32(ordinal))
                        members.append(member)
                    }
                }
                if !members.isEmpty {
                    try await connection.query("""
                        INSERT INTO collection_member (collection_id, ordinal, landmark_id)
                        SELECT * FROM unnest(\(memberCollections)::text[], \(ordinals)::integer[], \(members)::text[])
                        """, logger: logger)
                }
                for _ in batch {
                    done += 1
                    try progress(IndexProgress(phase: .writing, completed: done, total: total))
                }
            }
            // Restored entities come back in source order, landmarks first (as the SQLite store).
            restored = content.landmarks.map(\.reference).filter { restored.contains($0) }
                + content.collections.map(\.reference).filter { restored.contains($0) }

            var goneLandmarks: [String] = [], goneCollections: [String] = []
            if mode == .replace {
                // Entities gone from the source: soft-delete them as one undoable removal.
                let landmarkIDs = Set(content.landmarks.map(\.id))
                let collectionIDs = Set(content.collections.map(\.id))
                goneLandmarks = CatalogRules.goneFromSource(live: existingLandmarks.filter { $0.value.isEmpty }.keys, source: landmarkIDs)
                goneCollections = CatalogRules.goneFromSource(live: existingCollections.filter { $0.value.isEmpty }.keys, source: collectionIDs)
                if !goneLandmarks.isEmpty || !goneCollections.isEmpty {
                    let references = goneLandmarks.map { EntityReference(kind: .landmark, id: $0) } + goneCollections.map { EntityReference(kind: .collection, id: $0) }
                    let transaction = PostgresCatalogTransaction(connection: connection, logger: logger)
                    try await transaction.markRemoved(references, by: try await transaction.insertRemoval(reason: .missingFromSource, at: Date(), entities: references))
                }
                // Cache rows nothing refers to any more.
                try await connection.query("DELETE FROM file_state f WHERE NOT EXISTS (SELECT 1 FROM landmark_image i WHERE i.path = f.path)", logger: logger)
                try await connection.query("""
                    DELETE FROM fingerprint f WHERE NOT EXISTS (SELECT 1 FROM landmark_image i WHERE i.content_hash = f.content_hash)
                    AND NOT EXISTS (SELECT 1 FROM file_state s WHERE s.content_hash = f.content_hash)
                    """, logger: logger)
            } else if !earlierPaths.isEmpty {
                // Cache rows of the images the run's landmarks no longer have, nothing else refers to.
                try await connection.query("""
                    DELETE FROM file_state f WHERE f.path = ANY(\(earlierPaths)) AND NOT EXISTS (SELECT 1 FROM landmark_image i WHERE i.path = f.path)
                    """, logger: logger)
                try await connection.query("""
                    DELETE FROM fingerprint f WHERE f.content_hash = ANY(\(earlierHashes))
                    AND NOT EXISTS (SELECT 1 FROM landmark_image i WHERE i.content_hash = f.content_hash)
                    AND NOT EXISTS (SELECT 1 FROM file_state s WHERE s.content_hash = f.content_hash)
                    """, logger: logger)
            }

            // Move the generation only when what readers see changed (including fingerprints
            // recomputed for a newer layout), log what did, and announce it.
            let digestsAfter = try await Self.entityDigests(connection, logger, scope: scope)
            let updatedPaths = Set(report.updated.map(paths.stored))  // the report names files resolved
            let refingerprinted = content.landmarks.filter { $0.referenceImages.contains { updatedPaths.contains($0.path) } }.map(\.reference)
            let changed = CatalogRules.changed(before: digestsBefore, after: digestsAfter, refingerprinted: refingerprinted)
            if !changed.isEmpty {
                try await Self.bumpGeneration(connection, touching: changed, logger)
            }
            let version = try await Self.version(connection, logger)
            try await connection.query("""
                INSERT INTO index_run (source, finished_at, added, updated, unchanged, failed, generation)
                VALUES (\(sourceDescription), \(Date().timeIntervalSince1970), \(report.added.count), \(report.updated.count),
                        \(report.unchanged.count), \(report.failed.count), \(version.generation))
                """, logger: logger)
            report.removedLandmarks = goneLandmarks
            report.removedCollections = goneCollections
            report.restored = restored
            report.version = version
            return report
        }
    }

    /// A hash per entity of everything a reader can see of it (fields, removal, images,
    /// members), computed by the server (md5 of a canonical text per entity): of every
    /// entity, or of the `scope`'s alone. O(catalog), or O(scope).
    static func entityDigests(_ connection: PostgresConnection, _ logger: Logger, scope: EntityScope?) async throws -> [EntityReference: String] {
        var digests: [EntityReference: String] = [:]
        // The whole table, or the scope's ids bound as one array.
        func query(_ select: String, column: String, ids: [String]?) -> PostgresQuery {
            guard let ids else { return PostgresQuery(unsafeSQL: select) }
            var binds = PostgresBindings()
            binds.append(ids)
            return PostgresQuery(unsafeSQL: select + " WHERE \(column) = ANY($1)", binds: binds)
        }
        let landmarks = try await connection.query(query("""
            SELECT l.id, md5(concat_ws(E'\\x1f', l.name, coalesce(l.continent, E'\\x01'), l.description, l.keywords,
                coalesce(l.latitude::text, E'\\x01'), coalesce(l.longitude::text, E'\\x01'), coalesce(l.removal_id::text, E'\\x01'),
                (SELECT string_agg(i.path || E'\\x1e' || coalesce(i.content_hash, E'\\x01'), E'\\x1d' ORDER BY i.ordinal)
                 FROM landmark_image i WHERE i.landmark_id = l.id)))
            FROM landmark l
            """, column: "l.id", ids: scope?.landmarkIDs), logger: logger)
        for try await (id, digest) in landmarks.decode((String, String).self) { digests[EntityReference(kind: .landmark, id: id)] = digest }
        let collections = try await connection.query(query("""
            SELECT c.id, md5(concat_ws(E'\\x1f', c.name, coalesce(c.removal_id::text, E'\\x01'),
                (SELECT string_agg(m.landmark_id, E'\\x1d' ORDER BY m.ordinal) FROM collection_member m WHERE m.collection_id = c.id)))
            FROM collection c
            """, column: "c.id", ids: scope?.collectionIDs), logger: logger)
        for try await (id, digest) in collections.decode((String, String).self) { digests[EntityReference(kind: .collection, id: id)] = digest }
        return digests
    }
}
