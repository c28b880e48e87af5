import Catalog
import Foundation
import Logging
import PostgresNIO

extension PostgresEntityStore {
    /// Removes or archives an entity (soft: ``undoLastRemoval()`` restores it), in one transaction.
    /// - Complexity: O(entities touched).
    @discardableResult
    public func remove(_ reference: EntityReference, reason: Removal.Reason) async throws(CatalogStoreError) -> Removal {
        let operation = "\(reason == .archivedByUser ? "archive" : "remove") \(reference.url)"
        let logger = self.logger
        do {
            return try await write(operation) { connection in
                let table = reference.kind == .landmark ? "landmark" : "collection"
                let live = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT 1 FROM \(table) WHERE id = $1 AND removal_id IS NULL FOR UPDATE", binds: try Self.bindings(reference.id)), logger: logger)
                var found = false
                for try await _ in live { found = true }
                guard found else { throw CatalogStoreError.unknownEntity(reference) }
                let id = try await Self.insertRemoval(connection, reason: reason, entities: [reference], logger)
                try await connection.query(
                    PostgresQuery(unsafeSQL: "UPDATE \(table) SET removal_id = $1 WHERE id = $2", binds: try Self.bindings(id, reference.id)), logger: logger)
                try await Self.bumpGeneration(connection, touching: [reference], logger)
                return try await Self.removal(id: id, connection, logger)
            }
        } catch { throw storeError(operation, error) }
    }

    /// Restores the most recent removal not yet undone; `nil` when there is none.
    /// - Complexity: O(entities restored).
    @discardableResult
    public func undoLastRemoval() async throws(CatalogStoreError) -> Removal? {
        let logger = self.logger
        do {
            return try await write("undo the last removal") { connection -> Removal? in
                var last: Int64?
                for try await id in try await connection.query("SELECT max(id) FROM removal WHERE undone_at IS NULL", logger: logger).decode(Int64?.self) {
                    last = id
                }
                guard let id = last else { return nil }
                let removal = try await Self.removal(id: id, connection, logger)
                try await connection.query("UPDATE landmark SET removal_id = NULL WHERE removal_id = \(id)", logger: logger)
                try await connection.query("UPDATE collection SET removal_id = NULL WHERE removal_id = \(id)", logger: logger)
                try await connection.query("UPDATE removal SET undone_at = \(Date().timeIntervalSince1970) WHERE id = \(id)", logger: logger)
                try await Self.bumpGeneration(connection, touching: removal.entities, logger)
                var undone = removal
                undone.isUndone = true
                return undone
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

    static func insertRemoval(_ connection: PostgresConnection, reason: Removal.Reason, entities: [EntityReference], _ logger: Logger) async throws -> Int64 {
        let urls = StoredStringList.text(entities.map(\.url))
        let rows = try await connection.query("""
            INSERT INTO removal (reason, removed_at, entities) VALUES (\(reason.rawValue), \(Date().timeIntervalSince1970), \(urls)) RETURNING id
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
