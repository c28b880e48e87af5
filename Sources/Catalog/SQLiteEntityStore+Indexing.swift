import Foundation
import Fingerprints
import GRDB

/// The store's side of indexing: the file-state and fingerprint caches (written in
/// small transactions while fingerprinting, invisible to readers of the catalog) and
/// the one transaction that replaces the catalog's content.
extension SQLiteEntityStore {
    /// What the indexer needs to know before a run, read consistently.
    struct IndexingState {
        var fileStates: [String: FileState]
        /// Image path → content hash currently in the live or removed catalog.
        var catalogHashes: [String: ContentHash]
        /// Content hash → layout version of its cached fingerprint (read from the blob's
        /// header; an unreadable blob counts as version 0, so it is recomputed).
        var cachedLayoutVersions: [ContentHash: UInt16]
    }

    func indexingState() throws(CatalogStoreError) -> IndexingState {
        try read("reading index state") { db in
            var states: [String: FileState] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM file_state") {
                let state = FileState(path: row["path"], size: row["size"], mtimeNanoseconds: row["mtime_ns"], contentHash: ContentHash(hex: row["content_hash"]))
                states[state.path] = state
            }
            var hashes: [String: ContentHash] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, content_hash FROM landmark_image WHERE content_hash IS NOT NULL") {
                hashes[row["path"]] = ContentHash(hex: row["content_hash"])
            }
            var cached: [ContentHash: UInt16] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT content_hash, substr(data, 1, 5) AS header FROM fingerprint") {
                let header: Data = row["header"] ?? Data()
                cached[ContentHash(hex: row["content_hash"])] = FingerprintCoding.layoutVersion(header) ?? 0
            }
            return IndexingState(fileStates: states, catalogHashes: hashes, cachedLayoutVersions: cached)
        }
    }

    /// Records file states and newly computed fingerprints, in one small transaction.
    /// Catalog reads do not see these until ``commit(_:hashes:report:progress:)`` points
    /// landmark images at them.
    func saveFileStates(_ states: [FileState], fingerprints: [ContentHash: Fingerprint]) throws(CatalogStoreError) {
        do {
            try write("saving fingerprints") { db in
                for (hash, fingerprint) in fingerprints {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO fingerprint (content_hash, data) VALUES (?, ?)",
                        arguments: [hash.hex, FingerprintCoding.encode(fingerprint)])
                }
                for state in states {
                    try db.execute(
                        sql: "INSERT OR REPLACE INTO file_state (path, size, mtime_ns, content_hash) VALUES (?, ?, ?, ?)",
                        arguments: [state.path, state.size, state.mtimeNanoseconds, state.contentHash.hex])
                }
            }
        } catch let error as CatalogStoreError { throw error } catch {
            throw .database("saving fingerprints", reason: Self.message(error))
        }
    }

    /// Replaces the catalog's content with `content` in one transaction: upserts
    /// landmarks and collections (keeping user removals), soft-deletes those gone from the
    /// source as one ``Removal`` (reason ``Removal/Reason/missingFromSource``), restores
    /// ones a previous run removed as missing, drops cache rows nothing refers to, and
    /// bumps the generation if anything visible changed. `progress` may throw to abort:
    /// the transaction rolls back and nothing changes.
    func commit(
        _ content: CatalogContent, hashes: [String: ContentHash], sourceDescription: String, report: IndexReport,
        progress: (IndexProgress) throws -> Void
    ) throws -> IndexReport {
        try write("writing the catalog") { db in
            var report = report
            let digestBefore = try Self.contentDigest(db)
            let total = content.landmarks.count + content.collections.count
            var done = 0
            var restored: [EntityReference] = []
            for (position, landmark) in content.landmarks.enumerated() {
                let existing = try Row.fetchOne(db, sql: """
                    SELECT l.removal_id, r.reason FROM landmark l LEFT JOIN removal r ON r.id = l.removal_id WHERE l.id = ?
                    """, arguments: [landmark.id])
                let keywords = String(decoding: (try? JSONEncoder().encode(landmark.keywords)) ?? Data("[]".utf8), as: UTF8.self)
                let arguments: StatementArguments = [
                    landmark.name, landmark.continent, landmark.description, keywords,
                    landmark.location?.latitude, landmark.location?.longitude, position, landmark.id,
                ]
                if let existing {
                    var revive = false
                    if let reason: String = existing["reason"], reason == Removal.Reason.missingFromSource.rawValue {
                        revive = true
                        restored.append(landmark.reference)
                    }
                    try db.execute(sql: """
                        UPDATE landmark SET name = ?, continent = ?, description = ?, keywords = ?, latitude = ?, longitude = ?,
                        position = ?\(revive ? ", removal_id = NULL" : "") WHERE id = ?
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
            for (position, collection) in content.collections.enumerated() {
                let existing = try Row.fetchOne(db, sql: """
                    SELECT c.removal_id, r.reason FROM collection c LEFT JOIN removal r ON r.id = c.removal_id WHERE c.id = ?
                    """, arguments: [collection.id])
                if let existing {
                    var revive = false
                    if let reason: String = existing["reason"], reason == Removal.Reason.missingFromSource.rawValue {
                        revive = true
                        restored.append(collection.reference)
                    }
                    try db.execute(
                        sql: "UPDATE collection SET name = ?, position = ?\(revive ? ", removal_id = NULL" : "") WHERE id = ?",
                        arguments: [collection.name, position, collection.id])
                    try db.execute(sql: "DELETE FROM collection_member WHERE collection_id = ?", arguments: [collection.id])
                } else {
                    try db.execute(sql: "INSERT INTO collection (id, name, position) VALUES (?, ?, ?)", arguments: [collection.id, collection.name, position])
                }
                for (ordinal, member) in collection.landmarkIDs.enumerated() {
                    try db.execute(
                        sql: "INSERT INTO collection_member (collection_id, ordinal, landmark_id) VALUES (?, ?, ?)",
                        arguments: [collection.id, ordinal, member])
                }
                done += 1
                try progress(IndexProgress(phase: .writing, completed: done, total: total))
            }

            // Entities gone from the source: soft-delete them as one undoable removal.
            let landmarkIDs = Set(content.landmarks.map(\.id))
            let collectionIDs = Set(content.collections.map(\.id))
            let goneLandmarks = try String.fetchAll(db, sql: "SELECT id FROM landmark WHERE removal_id IS NULL ORDER BY id").filter { !landmarkIDs.contains($0) }
            let goneCollections = try String.fetchAll(db, sql: "SELECT id FROM collection WHERE removal_id IS NULL ORDER BY id").filter { !collectionIDs.contains($0) }
            if !goneLandmarks.isEmpty || !goneCollections.isEmpty {
                let references = goneLandmarks.map { EntityReference(kind: .landmark, id: $0) } + goneCollections.map { EntityReference(kind: .collection, id: $0) }
                let removalID = try Self.insertRemoval(db, reason: .missingFromSource, entities: references)
                for id in goneLandmarks {
                    try db.execute(sql: "UPDATE landmark SET removal_id = ? WHERE id = ?", arguments: [removalID, id])
                }
                for id in goneCollections {
                    try db.execute(sql: "UPDATE collection SET removal_id = ? WHERE id = ?", arguments: [removalID, id])
                }
            }

            // Cache rows nothing refers to any more.
            try db.execute(sql: "DELETE FROM file_state WHERE path NOT IN (SELECT path FROM landmark_image)")
            try db.execute(sql: """
                DELETE FROM fingerprint WHERE content_hash NOT IN (SELECT content_hash FROM landmark_image WHERE content_hash IS NOT NULL)
                AND content_hash NOT IN (SELECT content_hash FROM file_state)
                """)

            // Move the generation only when what readers see changed (content, or fingerprints
            // recomputed for a newer layout: those are reported as updated).
            if try Self.contentDigest(db) != digestBefore || !report.updated.isEmpty {
                try Self.bumpGeneration(db)
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

    /// A hash of everything a reader can see (live entities, their fields, images and
    /// members), to tell whether a commit changed anything.
    static func contentDigest(_ db: Database) throws -> String {
        var bytes: [UInt8] = []
        func add(_ value: DatabaseValueConvertible?) {
            bytes.append(contentsOf: "\(value?.databaseValue.description ?? "∅")".utf8)
            bytes.append(0x1F)
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM landmark ORDER BY id") {
            for (column, value) in row where column != "position" { add(column); add(value) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM landmark_image ORDER BY landmark_id, ordinal") {
            for (_, value) in row { add(value) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM collection ORDER BY id") {
            for (column, value) in row where column != "position" { add(column); add(value) }
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM collection_member ORDER BY collection_id, ordinal") {
            for (_, value) in row { add(value) }
        }
        return bytes.withUnsafeBytes { ContentHash(of: $0) }.hex
    }
}
