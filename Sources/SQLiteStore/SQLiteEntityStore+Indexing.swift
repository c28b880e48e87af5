import Catalog
import Foundation
import Fingerprints
import GRDB

/// The store's side of indexing: the file-state and fingerprint caches (written in
/// small transactions while fingerprinting, invisible to readers of the catalog) and
/// the one transaction that replaces the catalog's content.
extension SQLiteEntityStore {
    /// The file states and saved fingerprints of earlier runs (unchanged files are skipped):
    /// of every file, or of `paths` alone (an add run) and the fingerprints their states and
    /// catalog images name.
    /// - Complexity: O(files), or O(paths) in batched `IN (…)` reads.
    public func indexingState(paths: [String]?) throws(CatalogStoreError) -> IndexingState {
        try read("reading index state") { db in
            var states: [String: FileState] = [:]
            for chunk in Self.scoped("SELECT * FROM file_state", column: "path", ids: paths) {
                for record in try FileStateRecord.fetchAll(db, sql: chunk.sql, arguments: chunk.arguments) {
                    states[record.path] = FileState(path: record.path, size: record.size, mtimeNanoseconds: record.mtimeNanoseconds, contentHash: ContentHash(hex: record.contentHash))
                }
            }
            var hashes: [String: ContentHash] = [:]
            for chunk in Self.scoped("SELECT path, content_hash FROM landmark_image", column: "path", ids: paths, condition: "content_hash IS NOT NULL") {
                for row in try Row.fetchAll(db, sql: chunk.sql, arguments: chunk.arguments) { hashes[row["path"]] = ContentHash(hex: row["content_hash"]) }
            }
            // The saved fingerprints' layout versions: all, or those of the hashes just read.
            let wanted = paths.map { _ in Set(states.values.map(\.contentHash.hex)).union(hashes.values.map(\.hex)).sorted() }
            var cached: [ContentHash: UInt16] = [:]
            var qualities: [ContentHash: Int] = [:]
            let quality = hasCopyKeys ? "whole_quality" : "NULL"
            for chunk in Self.scoped("SELECT content_hash, substr(data, 1, 5) AS header, \(quality) AS whole_quality FROM fingerprint", column: "content_hash", ids: wanted) {
                for row in try Row.fetchAll(db, sql: chunk.sql, arguments: chunk.arguments) {
                    let header: Data = row["header"] ?? Data()
                    let hash = ContentHash(hex: row["content_hash"])
                    cached[hash] = FingerprintCoding.layoutVersion(header) ?? 0
                    if let best: Int = row["whole_quality"] { qualities[hash] = best }
                }
            }
            return IndexingState(fileStates: states, catalogHashes: hashes, cachedLayoutVersions: cached, cachedWholeImageQualities: qualities)
        }
    }

    /// Saves fingerprints computed so far outside the run's transaction, so a killed run reuses them.
    /// - Complexity: O(states).
    public func saveFileStates(_ states: [FileState], fingerprints: [ContentHash: Fingerprint]) throws(CatalogStoreError) {
        do {
            try write("saving fingerprints") { db in
                for (hash, fingerprint) in fingerprints {
                    try FingerprintRecord(contentHash: hash.hex, data: FingerprintCoding.encode(fingerprint),
                                          frameDigest: FrameDigest(of: fingerprint)?.value, wholeImageQuality: fingerprint.wholeImageQuality)
                        .insert(db, onConflict: .replace)
                }
                for state in states {
                    try FileStateRecord(path: state.path, size: state.size, mtimeNanoseconds: state.mtimeNanoseconds, contentHash: state.contentHash.hex)
                        .insert(db, onConflict: .replace)
                }
            }
        } catch let error as CatalogStoreError { throw error } catch {
            throw .database("saving fingerprints", reason: Self.message(error))
        }
    }

    /// Writes one index run in a single transaction: all of it or none (see
    /// ``EntityStore/commit(_:hashes:sourceDescription:report:mode:progress:)``).
    /// - Complexity: replace: O(catalog entities); add: O(content entities + their images),
    ///   in batched `IN (…)` statements.
    public func commit(
        _ content: CatalogContent, hashes: [String: ContentHash], sourceDescription: String, report: IndexReport,
        mode: IndexMode, progress: (IndexProgress) throws -> Void
    ) throws -> IndexReport {
        try write("write the catalog") { db in
            var report = report
            // An add run reads only the entities it names; a replace run, the whole catalog.
            let scope = mode == .add ? EntityScope(content) : nil
            let digestsBefore = try Self.entityDigests(db, scope: scope)
            let total = content.landmarks.count + content.collections.count
            var done = 0
            var restored: [EntityReference] = []
            // Each existing entity (of the scope) and its removal reason ("" when live), batched.
            func existingReasons(_ table: String, ids: [String]?) throws -> [String: String] {
                var reasons: [String: String] = [:]
                let select = "SELECT t.id, COALESCE(r.reason, '') AS reason FROM \(table) t LEFT JOIN removal r ON r.id = t.removal_id"
                for (sql, arguments) in Self.scoped(select, column: "t.id", ids: ids) {
                    let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                    while let row = try rows.next() { reasons[row["id"]] = row["reason"] }
                }
                return reasons
            }
            let existingLandmarks = try existingReasons("landmark", ids: scope?.landmarkIDs)
            let existingCollections = try existingReasons("collection", ids: scope?.collectionIDs)
            // An add run places new entities after the existing ones and keeps existing positions.
            func nextPosition(_ table: String) throws -> Int {
                mode == .add ? try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM \(table)") ?? 0 : 0
            }
            var newLandmarkPosition = try nextPosition("landmark")
            var newCollectionPosition = try nextPosition("collection")
            // The images the add run's landmarks had, whose cache rows may be orphaned below.
            var earlierImages: [(path: String, hash: String?)] = []
            if let scope {
                for (sql, arguments) in Self.scoped("SELECT path, content_hash FROM landmark_image", column: "landmark_id", ids: scope.landmarkIDs) {
                    for row in try Row.fetchAll(db, sql: sql, arguments: arguments) { earlierImages.append((row["path"], row["content_hash"])) }
                }
            }
            for (position, landmark) in content.landmarks.enumerated() {
                let existing = existingLandmarks[landmark.id]
                let keywords = StoredStringList.text(landmark.keywords)
                let keepsPosition = mode == .add && existing != nil
                var values: [(any DatabaseValueConvertible)?] = [
                    landmark.name, landmark.continent, landmark.description, keywords,
                    landmark.location?.latitude, landmark.location?.longitude,
                ]
                if !keepsPosition {
                    values.append(mode == .add ? newLandmarkPosition : position)
                    if mode == .add { newLandmarkPosition += 1 }
                }
                values.append(landmark.id)
                let arguments = StatementArguments(values)
                if existing != nil {
                    var revive = false
                    if CatalogRules.sourceRevives(removedFor: existing) {
                        revive = true
                        restored.append(landmark.reference)
                    }
                    try db.execute(sql: """
                        UPDATE landmark SET name = ?, continent = ?, description = ?, keywords = ?, latitude = ?, longitude = ?\
                        \(keepsPosition ? "" : ", position = ?")\(revive ? ", removal_id = NULL" : "") WHERE id = ?
                        """, arguments: arguments)
                    try db.execute(sql: "DELETE FROM landmark_image WHERE landmark_id = ?", arguments: [landmark.id])
                } else {
                    try db.execute(sql: """
                        INSERT INTO landmark (name, continent, description, keywords, latitude, longitude, position, id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: arguments)
                }
                for (ordinal, image) in landmark.referenceImages.enumerated() {
                    try db.execute(
                        sql: "INSERT INTO landmark_image (landmark_id, ordinal, path, content_hash) VALUES (?, ?, ?, ?)",
                        arguments: [landmark.id, ordinal, image.path, hashes[image.path]?.hex])
                }
                done += 1
                try progress(IndexProgress(phase: .writing, completed: done, total: total))
            }
            // An add run's collections keep their members and gain the source's.
            var earlierMembers: [String: [String]] = [:]
            if let scope {
                for (sql, arguments) in Self.scoped("SELECT collection_id, landmark_id FROM collection_member", column: "collection_id",
                                                    ids: scope.collectionIDs, order: "collection_id, ordinal") {
                    for row in try Row.fetchAll(db, sql: sql, arguments: arguments) { earlierMembers[row["collection_id"], default: []].append(row["landmark_id"]) }
                }
            }
            for (position, collection) in content.collections.enumerated() {
                let existing = existingCollections[collection.id]
                let members = mode == .add
                    ? CatalogRules.addedMembers(existing: earlierMembers[collection.id] ?? [], source: collection.landmarkIDs) : collection.landmarkIDs
                if existing != nil {
                    var revive = false
                    if CatalogRules.sourceRevives(removedFor: existing) {
                        revive = true
                        restored.append(collection.reference)
                    }
                    let keepsPosition = mode == .add
                    try db.execute(
                        sql: "UPDATE collection SET name = ?\(keepsPosition ? "" : ", position = ?")\(revive ? ", removal_id = NULL" : "") WHERE id = ?",
                        arguments: keepsPosition ? [collection.name, collection.id] : [collection.name, position, collection.id])
                    try db.execute(sql: "DELETE FROM collection_member WHERE collection_id = ?", arguments: [collection.id])
                } else {
                    let placed = mode == .add ? newCollectionPosition : position
                    if mode == .add { newCollectionPosition += 1 }
                    try db.execute(sql: "INSERT INTO collection (id, name, position) VALUES (?, ?, ?)", arguments: [collection.id, collection.name, placed])
                }
                for (ordinal, member) in members.enumerated() {
                    try db.execute(
                        sql: "INSERT INTO collection_member (collection_id, ordinal, landmark_id) VALUES (?, ?, ?)",
                        arguments: [collection.id, ordinal, member])
                }
                done += 1
                try progress(IndexProgress(phase: .writing, completed: done, total: total))
            }

            var goneLandmarks: [String] = [], goneCollections: [String] = []
            if mode == .replace {
                // Entities gone from the source: soft-delete them as one undoable removal.
                let landmarkIDs = Set(content.landmarks.map(\.id))
                let collectionIDs = Set(content.collections.map(\.id))
                goneLandmarks = CatalogRules.goneFromSource(live: try String.fetchAll(db, sql: "SELECT id FROM landmark WHERE removal_id IS NULL"), source: landmarkIDs)
                goneCollections = CatalogRules.goneFromSource(live: try String.fetchAll(db, sql: "SELECT id FROM collection WHERE removal_id IS NULL"), source: collectionIDs)
                if !goneLandmarks.isEmpty || !goneCollections.isEmpty {
                    let references = goneLandmarks.map { EntityReference(kind: .landmark, id: $0) } + goneCollections.map { EntityReference(kind: .collection, id: $0) }
                    try Self.markRemoved(db, references, by: try Self.insertRemoval(db, reason: .missingFromSource, entities: references))
                }
                // Cache rows nothing refers to any more.
                try db.execute(sql: "DELETE FROM file_state WHERE path NOT IN (SELECT path FROM landmark_image)")
                try db.execute(sql: """
                    DELETE FROM fingerprint WHERE content_hash NOT IN (SELECT content_hash FROM landmark_image WHERE content_hash IS NOT NULL)
                    AND content_hash NOT IN (SELECT content_hash FROM file_state)
                    """)
            } else {
                // Cache rows of the images the run's landmarks no longer have, nothing else refers to.
                let paths = Array(Set(earlierImages.map(\.path))).sorted()
                for (sql, arguments) in Self.scoped("DELETE FROM file_state", column: "path", ids: paths,
                                                    condition: "NOT EXISTS (SELECT 1 FROM landmark_image i WHERE i.path = file_state.path)") {
                    try db.execute(sql: sql, arguments: arguments)
                }
                let contentHashes = Array(Set(earlierImages.compactMap(\.hash))).sorted()
                for (sql, arguments) in Self.scoped("DELETE FROM fingerprint", column: "content_hash", ids: contentHashes, condition: """
                    NOT EXISTS (SELECT 1 FROM landmark_image i WHERE i.content_hash = fingerprint.content_hash) \
                    AND NOT EXISTS (SELECT 1 FROM file_state s WHERE s.content_hash = fingerprint.content_hash)
                    """) {
                    try db.execute(sql: sql, arguments: arguments)
                }
            }

            // Move the generation only when what readers see changed, and log what did.
            let digestsAfter = try Self.entityDigests(db, scope: scope)
            // Fingerprints recomputed for a newer layout (same content, reported as updated)
            // change what readers see too.
            let updatedPaths = Set(report.updated.map(paths.stored))  // the report names files resolved
            let refingerprinted = content.landmarks.filter { $0.referenceImages.contains { updatedPaths.contains($0.path) } }.map(\.reference)
            let changed = CatalogRules.changed(before: digestsBefore, after: digestsAfter, refingerprinted: refingerprinted)
            if !changed.isEmpty {
                try Self.bumpGeneration(db, touching: changed)
            }
            let version = try Self.version(db)
            try db.execute(sql: """
                INSERT INTO index_run (source, finished_at, added, updated, unchanged, failed, generation) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [sourceDescription, Date().timeIntervalSince1970, report.added.count, report.updated.count,
                                 report.unchanged.count, report.failed.count, version.generation])
            report.removedLandmarks = goneLandmarks
            report.removedCollections = goneCollections
            report.restored = restored
            report.version = version
            return report
        }
    }

    /// `select` once over the whole table (`ids` nil), or once per batch of ``batch`` ids
    /// with `column IN (…)`; `condition` (SQL) further restricts the rows either way, and
    /// `order` (an `ORDER BY` clause's columns) sorts them. No statement for an empty `ids`.
    /// - Complexity: O(ids).
    static func scoped(_ select: String, column: String, ids: [String]?, condition: String? = nil,
                       order: String? = nil) -> [(sql: String, arguments: StatementArguments)] {
        let tail = order.map { " ORDER BY " + $0 } ?? ""
        guard let ids else { return [(select + (condition.map { " WHERE " + $0 } ?? "") + tail, StatementArguments())] }
        return ids.chunked(batch).map { chunk in
            (select + " WHERE \(column) IN (" + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
                + (condition.map { " AND " + $0 } ?? "") + tail, StatementArguments(chunk))
        }
    }

    /// A hash per entity of everything a reader can see of it (its fields, removal,
    /// images and members), to tell which entities a commit changed: of every entity, or of
    /// the `scope`'s alone. O(catalog), or O(scope) in batched reads.
    static func entityDigests(_ db: Database, scope: EntityScope?) throws -> [EntityReference: String] {
        var text: [EntityReference: String] = [:]
        func add(_ reference: EntityReference, _ row: Row, skipping skipped: Set<String>) {
            var line = ""
            for (column, value) in row where !skipped.contains(column) {
                line += column + "=" + value.description + "\u{1F}"
            }
            text[reference, default: ""] += line + "\u{1E}"
        }
        // Each entity's row, then its images' or members' rows in order (the text hashed).
        let parts: [(table: String, owner: String, ids: [String]?, order: String, kind: EntityKind, skipping: Set<String>)] = [
            ("landmark", "id", scope?.landmarkIDs, "id", .landmark, ["position"]),
            ("landmark_image", "landmark_id", scope?.landmarkIDs, "landmark_id, ordinal", .landmark, []),
            ("collection", "id", scope?.collectionIDs, "id", .collection, ["position"]),
            ("collection_member", "collection_id", scope?.collectionIDs, "collection_id, ordinal", .collection, []),
        ]
        for part in parts {
            for (sql, arguments) in scoped("SELECT * FROM \(part.table)", column: part.owner, ids: part.ids, order: part.order) {
                for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                    add(EntityReference(kind: part.kind, id: row[part.owner]), row, skipping: part.skipping)
                }
            }
        }
        return text.mapValues { ContentHash(of: Data($0.utf8)).hex }
    }
}
