import Catalog
import Foundation
import GRDB

extension SQLiteEntityStore {
    /// Removes or archives an entity (soft: ``undoLastRemoval()`` restores it), in one
    /// transaction, by ``CatalogRules/remove(_:reason:in:at:)``.
    /// - Complexity: O(entities touched).
    @discardableResult
    public func remove(_ reference: EntityReference, reason: Removal.Reason) async throws(CatalogStoreError) -> Removal {
        try await transaction("\(reason == .archivedByUser ? "archive" : "remove") \(reference.url)") { transaction in
            try await CatalogRules.remove(reference, reason: reason, in: transaction)
        }
    }

    /// Restores the most recent removal not yet undone (``CatalogRules/undoLatestRemoval(in:at:)``);
    /// `nil` when there is none.
    /// - Complexity: O(entities restored).
    @discardableResult
    public func undoLastRemoval() async throws(CatalogStoreError) -> Removal? {
        try await transaction("undo the last removal") { transaction in
            try await CatalogRules.undoLatestRemoval(in: transaction)
        }
    }

    /// Every removal, newest first.
    /// - Complexity: O(removals).
    public func removals() throws(CatalogStoreError) -> [Removal] {
        try read("reading removals") { db in
            try RemovalRecord.order(RemovalRecord.Columns.id.desc).fetchAll(db).map(Self.removal)
        }
    }

    /// Runs `body` (the catalog's rules) in one write transaction: all of it commits, or
    /// nothing when it throws. Errors become ``CatalogStoreError`` naming `operation`.
    func transaction<T: Sendable>(_ operation: String,
                                  _ body: (SQLiteCatalogTransaction) async throws -> T) async throws(CatalogStoreError) -> T {
        guard mode == .readWrite else { throw CatalogStoreError.readOnly(path, operation: operation) }
        let session = SQLiteWriteSession(writer: database)
        let result: T
        do {
            do {
                result = try await body(SQLiteCatalogTransaction(session: session))
            } catch {
                try? await session.finish(commit: false)
                throw error
            }
            try await session.finish(commit: true)
        } catch let error as CatalogStoreError {
            throw error
        } catch {
            throw .database("\(operation) in \(path)", reason: Self.message(error))
        }
        foldWriteAheadLog()
        return result
    }

    static func table(_ kind: EntityKind) -> String {
        kind == .landmark ? LandmarkRecord.databaseTableName : CollectionRecord.databaseTableName
    }

    /// Marks `entities` removed by the removal `id`. O(entities) row updates.
    static func markRemoved(_ db: Database, _ entities: [EntityReference], by id: Int64) throws {
        for entity in entities {
            try db.execute(sql: "UPDATE \(table(entity.kind)) SET removal_id = ? WHERE id = ?", arguments: [id, entity.id])
        }
    }

    static func insertRemoval(_ db: Database, reason: Removal.Reason, at date: Date = Date(), entities: [EntityReference]) throws -> Int64 {
        let urls = StoredStringList.text(entities.map(\.url))
        var record = RemovalRecord(id: nil, reason: reason.rawValue, removedAt: date.timeIntervalSince1970, undoneAt: nil, entities: urls)
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

/// The queries of ``CatalogRules`` on one SQLite write transaction (GRDB record types).
struct SQLiteCatalogTransaction: CatalogWriteTransaction {
    let session: SQLiteWriteSession

    func isLive(_ reference: EntityReference) async throws -> Bool {
        try await session.run { db in
            switch reference.kind {
            case .landmark:
                try LandmarkRecord.filter(LandmarkRecord.Columns.id == reference.id && LandmarkRecord.Columns.removalID == nil).fetchCount(db) > 0
            case .collection:
                try CollectionRecord.filter(CollectionRecord.Columns.id == reference.id && CollectionRecord.Columns.removalID == nil).fetchCount(db) > 0
            }
        }
    }

    func insertRemoval(reason: Removal.Reason, at date: Date, entities: [EntityReference]) async throws -> Int64 {
        try await session.run { db in try SQLiteEntityStore.insertRemoval(db, reason: reason, at: date, entities: entities) }
    }

    func markRemoved(_ entities: [EntityReference], by id: Int64) async throws {
        try await session.run { db in try SQLiteEntityStore.markRemoved(db, entities, by: id) }
    }

    func latestOpenRemoval() async throws -> Removal? {
        try await session.run { db in
            try RemovalRecord.filter(RemovalRecord.Columns.undoneAt == nil).order(RemovalRecord.Columns.id.desc).fetchOne(db)
                .map(SQLiteEntityStore.removal)
        }
    }

    func restore(removal id: Int64, undoneAt date: Date) async throws {
        try await session.run { db in
            try db.execute(sql: "UPDATE landmark SET removal_id = NULL WHERE removal_id = ?", arguments: [id])
            try db.execute(sql: "UPDATE collection SET removal_id = NULL WHERE removal_id = ?", arguments: [id])
            try db.execute(sql: "UPDATE removal SET undone_at = ? WHERE id = ?", arguments: [date.timeIntervalSince1970, id])
        }
    }

    func removal(id: Int64) async throws -> Removal {
        try await session.run { db in try SQLiteEntityStore.removal(id: id, db) }
    }

    func advanceGeneration(touching entities: [EntityReference]) async throws {
        try await session.run { db in try SQLiteEntityStore.bumpGeneration(db, touching: entities) }
    }
}
