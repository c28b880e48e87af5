import Foundation
import GRDB

extension SQLiteEntityStore {
    @discardableResult
    public func remove(_ reference: EntityReference) throws(CatalogStoreError) -> Removal {
        do {
            return try write("removing \(reference.url)") { db in
                let table = reference.kind == .landmark ? "landmark" : "collection"
                let live = try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE id = ? AND removal_id IS NULL", arguments: [reference.id]) ?? false
                guard live else { throw CatalogStoreError.unknownEntity(reference) }
                let id = try Self.insertRemoval(db, reason: .removedByUser, entities: [reference])
                try db.execute(sql: "UPDATE \(table) SET removal_id = ? WHERE id = ?", arguments: [id, reference.id])
                try Self.bumpGeneration(db)
                return try Self.removal(id: id, db)
            }
        } catch let error as CatalogStoreError { throw error } catch {
            throw .database("removing \(reference.url)", reason: Self.message(error))
        }
    }

    @discardableResult
    public func undoLastRemoval() throws(CatalogStoreError) -> Removal? {
        do {
            return try write("undoing the last removal") { db in
                guard let id = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM removal WHERE undone_at IS NULL") else { return nil }
                let removal = try Self.removal(id: id, db)
                try db.execute(sql: "UPDATE landmark SET removal_id = NULL WHERE removal_id = ?", arguments: [id])
                try db.execute(sql: "UPDATE collection SET removal_id = NULL WHERE removal_id = ?", arguments: [id])
                try db.execute(sql: "UPDATE removal SET undone_at = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, id])
                try Self.bumpGeneration(db)
                var undone = removal
                undone.isUndone = true
                return undone
            }
        } catch let error as CatalogStoreError { throw error } catch {
            throw .database("undoing the last removal", reason: Self.message(error))
        }
    }

    public func removals() throws(CatalogStoreError) -> [Removal] {
        try read("reading removals") { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM removal ORDER BY id DESC").map { try Self.removal(id: $0, db) }
        }
    }

    static func insertRemoval(_ db: Database, reason: Removal.Reason, entities: [EntityReference]) throws -> Int64 {
        let urls = String(decoding: (try? JSONEncoder().encode(entities.map(\.url))) ?? Data("[]".utf8), as: UTF8.self)
        try db.execute(
            sql: "INSERT INTO removal (reason, removed_at, entities) VALUES (?, ?, ?)",
            arguments: [reason.rawValue, Date().timeIntervalSince1970, urls])
        return db.lastInsertedRowID
    }

    /// The removal with the entities it named.
    static func removal(id: Int64, _ db: Database) throws -> Removal {
        let row = try Row.fetchOne(db, sql: "SELECT * FROM removal WHERE id = ?", arguments: [id])
        let reasonText: String = row?["reason"] ?? Removal.Reason.removedByUser.rawValue
        let date: Double = row?["removed_at"] ?? 0
        let undone: Double? = row?["undone_at"]
        let entitiesJSON: String = row?["entities"] ?? "[]"
        let urls = (try? JSONDecoder().decode([String].self, from: Data(entitiesJSON.utf8))) ?? []
        return Removal(
            id: id, reason: Removal.Reason(rawValue: reasonText) ?? .removedByUser,
            date: Date(timeIntervalSince1970: date),
            entities: urls.compactMap { try? EntityReference(url: $0) },
            isUndone: undone != nil)
    }
}
