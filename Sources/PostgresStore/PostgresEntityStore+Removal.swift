import Catalog
import Foundation
import Logging
import PostgresNIO

extension PostgresEntityStore {
    /// Removes or archives an entity (soft: ``undoLastRemoval()`` restores it), in one
    /// transaction, by ``CatalogRules/remove(_:reason:in:at:)``.
    /// - Complexity: O(entities touched).
    @discardableResult
    public func remove(_ reference: EntityReference, reason: Removal.Reason) async throws(CatalogStoreError) -> Removal {
        let operation = "\(reason == .archivedByUser ? "archive" : "remove") \(reference.url)"
        let logger = self.logger
        do {
            return try await write(operation) { connection in
                try await CatalogRules.remove(reference, reason: reason, in: PostgresCatalogTransaction(connection: connection, logger: logger))
            }
        } catch { throw storeError(operation, error) }
    }

    /// Restores the most recent removal not yet undone (``CatalogRules/undoLatestRemoval(in:at:)``);
    /// `nil` when there is none.
    /// - Complexity: O(entities restored).
    @discardableResult
    public func undoLastRemoval() async throws(CatalogStoreError) -> Removal? {
        let logger = self.logger
        do {
            return try await write("undo the last removal") { connection -> Removal? in
                try await CatalogRules.undoLatestRemoval(in: PostgresCatalogTransaction(connection: connection, logger: logger))
            }
        } catch { throw storeError("undo the last removal", error) }
    }

    /// Every removal, newest first.
    /// - Complexity: O(removals).
    public func removals() async throws(CatalogStoreError) -> [Removal] {
        let logger = self.logger
        return try await read("reading removals") { connection in
            var out: [Removal] = []
            let rows = try await connection.query("SELECT id, reason, removed_at, undone_at, entities FROM removal ORDER BY id DESC", logger: logger)
            for try await row in rows.decode((Int64, String, Double, Double?, String).self) { out.append(try Self.removal(row)) }
            return out
        }
    }

    static func bindings(_ values: any PostgresEncodable...) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        for value in values { try bindings.append(value) }
        return bindings
    }

    static func insertRemoval(_ connection: PostgresConnection, reason: Removal.Reason, at date: Date = Date(), entities: [EntityReference],
                              _ logger: Logger) async throws -> Int64 {
        let urls = StoredStringList.text(entities.map(\.url))
        let rows = try await connection.query("""
            INSERT INTO removal (reason, removed_at, entities) VALUES (\(reason.rawValue), \(date.timeIntervalSince1970), \(urls)) RETURNING id
            """, logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        throw CatalogStoreError.database("recording a removal", reason: "no id returned")
    }

    static func removal(id: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws -> Removal {
        let rows = try await connection.query("SELECT id, reason, removed_at, undone_at, entities FROM removal WHERE id = \(id)", logger: logger)
        for try await row in rows.decode((Int64, String, Double, Double?, String).self) { return try removal(row) }
        return Removal(id: id, reason: .removedByUser, date: Date(timeIntervalSince1970: 0), entities: [], isUndone: false)
    }

    static func removal(_ row: (Int64, String, Double, Double?, String)) throws -> Removal {
        let urls = try StoredStringList.values(row.4, column: "entities of removal \(row.0)")
        return Removal(id: row.0, reason: Removal.Reason(rawValue: row.1) ?? .removedByUser, date: Date(timeIntervalSince1970: row.2),
                       entities: urls.compactMap { try? EntityReference(url: $0) }, isUndone: row.3 != nil)
    }
}

/// The queries of ``CatalogRules`` on one PostgreSQL write transaction (its connection, inside
/// the writer lock).
struct PostgresCatalogTransaction: CatalogWriteTransaction {
    let connection: PostgresConnection
    let logger: Logger

    func isLive(_ reference: EntityReference) async throws -> Bool {
        let table = reference.kind == .landmark ? "landmark" : "collection"
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT 1 FROM \(table) WHERE id = $1 AND removal_id IS NULL FOR UPDATE",
                          binds: try PostgresEntityStore.bindings(reference.id)), logger: logger)
        var found = false
        for try await _ in rows { found = true }
        return found
    }

    func insertRemoval(reason: Removal.Reason, at date: Date, entities: [EntityReference]) async throws -> Int64 {
        try await PostgresEntityStore.insertRemoval(connection, reason: reason, at: date, entities: entities, logger)
    }

    func markRemoved(_ entities: [EntityReference], by id: Int64) async throws {
        for kind in EntityKind.allCases {
            let ids = entities.filter { $0.kind == kind }.map(\.id)
            guard !ids.isEmpty else { continue }
            let table = kind == .landmark ? "landmark" : "collection"
            try await connection.query(
                PostgresQuery(unsafeSQL: "UPDATE \(table) SET removal_id = $1 WHERE id = ANY($2)", binds: try PostgresEntityStore.bindings(id, ids)),
                logger: logger)
        }
    }

    func latestOpenRemoval() async throws -> Removal? {
        var last: Int64?
        for try await id in try await connection.query("SELECT max(id) FROM removal WHERE undone_at IS NULL", logger: logger).decode(Int64?.self) {
            last = id
        }
        guard let last else { return nil }
        return try await PostgresEntityStore.removal(id: last, connection, logger)
    }

    func restore(removal id: Int64, undoneAt date: Date) async throws {
        try await connection.query("UPDATE landmark SET removal_id = NULL WHERE removal_id = \(id)", logger: logger)
        try await connection.query("UPDATE collection SET removal_id = NULL WHERE removal_id = \(id)", logger: logger)
        try await connection.query("UPDATE removal SET undone_at = \(date.timeIntervalSince1970) WHERE id = \(id)", logger: logger)
    }

    func removal(id: Int64) async throws -> Removal {
        try await PostgresEntityStore.removal(id: id, connection, logger)
    }

    func advanceGeneration(touching entities: [EntityReference]) async throws {
        try await PostgresEntityStore.bumpGeneration(connection, touching: entities, logger)
    }
}
