import Catalog
import Foundation
import Fingerprints
import GRDB

/// The store's side of indexing: the file-state and fingerprint caches (written in
/// small transactions while fingerprinting, invisible to readers of the catalog) and
/// the one transaction that replaces the catalog's content.
extension SQLiteEntityStore {
    /// The file states and saved fingerprints of earlier runs (unchanged files are skipped).
    /// - Complexity: O(files).
    public func indexingState() throws(CatalogStoreError) -> IndexingState {
        try read("reading index state") { db in
            var states: [String: FileState] = [:]
            for record in try FileStateRecord.fetchAll(db) {
                states[record.path] = FileState(path: record.path, size: record.size, mtimeNanoseconds: record.mtimeNanoseconds, contentHash: ContentHash(hex: record.contentHash))
            }
            var hashes: [String: ContentHash] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, content_hash FROM landmark_image WHERE content_hash IS NOT NULL") {
                hashes[row["path"]] = ContentHash(hex: row["content_hash"])
            }
            var cached: [ContentHash: UInt16] = [:]
            var qualities: [ContentHash: Int] = [:]
            let quality = hasCopyKeys ? "whole_quality" : "NULL"
            for row in try Row.fetchAll(db, sql: "SELECT content_hash, substr(data, 1, 5) AS header, \(quality) AS whole_quality FROM fingerprint") {
                let header: Data = row["header"] ?? Data()
                let hash = ContentHash(hex: row["content_hash"])
                cached[hash] = FingerprintCoding.layoutVersion(header) ?? 0
                if let best: Int = row["whole_quality"] { qualities[hash] = best }
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

    /// Writes one index run in a single transaction: all of it or none.
    /// - Complexity: O(changed entities + their views).
    public func commit(
        _ content: CatalogContent, hashes: [String: ContentHash], sourceDescription: String, report: IndexReport,
        progress: (IndexProgress) throws -> Void
    ) throws -> IndexReport {
        try write("write the catalog") { db in
            var report = report
            let digestsBefore = try Self.entityDigests(db)
            let total = content.landmarks.count + content.collections.count
            var done = 0
            var restored: [EntityReference] = []
            // Every existing entity and its removal reason ("" when live), in one query per kind.
            func existingReasons(_ table: String) throws -> [String: String] {
                var reasons: [String: String] = [:]
                let rows = try Row.fetchCursor(db, sql: "SELECT t.id, COALESCE(r.reason, '') AS reason FROM \(table) t LEFT JOIN removal r ON r.id = t.removal_id")
                while let row = try rows.next() { reasons[row["id"]] = row["reason"] }
                return reasons
            }
            let existingLandmarks = try existingReasons("landmark")
            let existingCollections = try existingReasons("collection")
            for (position, landmark) in content.landmarks.enumerated() {
                let existing = existingLandmarks[landmark.id]
                let keywords = StoredStringList.text(landmark.keywords)
                let arguments: StatementArguments = [
                    landmark.name, landmark.continent, landmark.description, keywords,
                    landmark.location?.latitude, landmark.location?.longitude, position, landmark.id,
                ]
                if existing != nil {
                    var revive = false
                    if CatalogRules.sourceRevives(removedFor: existing) {
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
                let existing = existingCollections[collection.id]
                if existing != nil {
                    var revive = false
                    if CatalogRules.sourceRevives(removedFor: existing) {
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
            let goneLandmarks = CatalogRules.goneFromSource(live: try String.fetchAll(db, sql: "SELECT id FROM landmark WHERE removal_id IS NULL"), source: landmarkIDs)
            let goneCollections = CatalogRules.goneFromSource(live: try String.fetchAll(db, sql: "SELECT id FROM collection WHERE removal_id IS NULL"), source: collectionIDs)
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

            // Move the generation only when what readers see changed, and log what did.
            let digestsAfter = try Self.entityDigests(db)
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

    /// A hash per entity of everything a reader can see of it (its fields, removal,
    /// images and members), to tell which entities a commit changed. O(catalog).
    static func entityDigests(_ db: Database) throws -> [EntityReference: String] {
        var text: [EntityReference: String] = [:]
        func add(_ reference: EntityReference, _ row: Row, skipping skipped: Set<String>) {
            var line = ""
            for (column, value) in row where !skipped.contains(column) {
                line += column + "=" + value.description + "\u{1F}"
            }
            text[reference, default: ""] += line + "\u{1E}"
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM landmark ORDER BY id") {
            add(EntityReference(kind: .landmark, id: row["id"]), row, skipping: ["position"])
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM landmark_image ORDER BY landmark_id, ordinal") {
            add(EntityReference(kind: .landmark, id: row["landmark_id"]), row, skipping: [])
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM collection ORDER BY id") {
            add(EntityReference(kind: .collection, id: row["id"]), row, skipping: ["position"])
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM collection_member ORDER BY collection_id, ordinal") {
            add(EntityReference(kind: .collection, id: row["collection_id"]), row, skipping: [])
        }
        return text.mapValues { ContentHash(of: Data($0.utf8)).hex }
    }
}
