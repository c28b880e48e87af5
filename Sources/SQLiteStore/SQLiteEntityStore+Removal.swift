import Catalog
import Foundation
import GRDB

extension SQLiteEntityStore {
    /// Removes or archives an entity (soft: ``undoLastRemoval()`` restores it), in one transaction.
    /// - Complexity: O(entities touched).
    @discardableResult
    public func remove(_ reference: EntityReference, reason: Removal.Reason) throws(CatalogStoreError) -> Removal {
        let operation = "\(reason == .archivedByUser ? "archive" : "remove") \(reference.url)"
        do {
            return try write(operation) { db in
                let live: Bool
                switch reference.kind {
                case .landmark: live = try LandmarkRecord.filter(LandmarkRecord.Columns.id == reference.id && LandmarkRecord.Columns.removalID == nil).fetchCount(db) > 0
                case .collection: live = try CollectionRecord.filter(CollectionRecord.Columns.id == reference.id && CollectionRecord.Columns.removalID == nil).fetchCount(db) > 0
                }
                guard live else { throw CatalogStoreError.unknownEntity(reference) }
                let id = try Self.insertRemoval(db, reason: reason, entities: [reference])
                try db.execute(sql: "UPDATE \(Self.table(reference.kind)) SET removal_id = ? WHERE id = ?", arguments: [id, reference.id])
                try Self.bumpGeneration(db, touching: [reference])
                return try Self.removal(id: id, db)
            }
        } catch let error as CatalogStoreError { throw error } catch {
            throw .database("\(operation) in \(path)", reason: Self.message(error))
        }
    }

    /// Restores the most recent removal not yet undone; `nil` when there is none.
    /// - Complexity: O(entities restored).
    @discardableResult
    public func undoLastRemoval() throws(CatalogStoreError) -> Removal? {
        do {
            return try write("undo the last removal") { db in
                guard let record = try RemovalRecord.filter(RemovalRecord.Columns.undoneAt == nil).order(RemovalRecord.Columns.id.desc).fetchOne(db),
                      let id = record.id else { return nil }
                let removal = try Self.removal(id: id, db)
                try db.execute(sql: "UPDATE landmark SET removal_id = NULL WHERE removal_id = ?", arguments: [id])
                try db.execute(sql: "UPDATE collection SET removal_id = NULL WHERE removal_id = ?", arguments: [id])
                try db.execute(sql: "UPDATE removal SET undone_at = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, id])
                try Self.bumpGeneration(db, touching: removal.entities)
                var undone = removal
                undone.isUndone = true
                return undone
            }
        } catch let error as CatalogStoreError { throw error } catch {
            throw .database("undoing the last removal in \(path)", reason: Self.message(error))
        }
    }

    /// Every removal, newest first.
    /// - Complexity: O(removals).
    public func removals() throws(CatalogStoreError) -> [Removal] {
        try read("reading removals") { db in
            try RemovalRecord.order(RemovalRecord.Columns.id.desc).fetchAll(db).map(Self.removal)
        }
    }

    static func table(_ kind: EntityKind) -> String {
        kind == .landmark ? LandmarkRecord.databaseTableName : CollectionRecord.databaseTableName
    }

    static func insertRemoval(_ db: Database, reason: Removal.Reason, entities: [EntityReference]) throws -> Int64 {
        let urls = StoredStringList.text(entities.map(\.url))
        var record = RemovalRecord(id: nil, reason: reason.rawValue, removedAt: Date().timeIntervalSince1970, undoneAt: nil, entities: urls)
        try record.insert(db)
        return record.id ?? db.lastInsertedRowID
    }

    /// The removal with the entities it named.
    static func removal(id: Int64, _ db: Database) throws -> Removal {
        guard let record = try RemovalRecord.fetchOne(db, key: id) else {
            return Removal(id: id, reason: .removedByUser, date: Date(timeIntervalSince1970: 0), entities: [], isUndone: false)
        }
        return try removal(record)
    }

    static func removal(_ record: RemovalRecord) throws -> Removal {
        let urls = try StoredStringList.values(record.entities, column: "entities of removal \(record.id ?? 0)")
        return Removal(
            id: record.id ?? 0, reason: Removal.Reason(rawValue: record.reason) ?? .removedByUser,
            date: Date(timeIntervalSince1970: record.removedAt),
            entities: urls.compactMap { try? EntityReference(url: $0) },
            isUndone: record.undoneAt != nil)
    }
}
