extension SQLiteEntityStore {
    /// Soft-removes one live landmark or collection with a given reason: like
    /// ``remove(_:)`` (the entity disappears from reads and queries, stays stored, and
    /// ``undoLastRemoval()`` restores it), but recorded as `reason`, for example
    /// ``Removal/Reason/archivedByUser``. Indexing never revives a user's removal or
    /// archive. One transaction.
    ///
    /// - Throws: ``CatalogStoreError/unknownEntity(_:)`` when it is unknown or already
    ///   removed, ``CatalogStoreError/database(_:reason:)`` when SQLite fails.
    @discardableResult
    public func remove(_ reference: EntityReference, reason: Removal.Reason) throws(CatalogStoreError) -> Removal {
        let operation = "\(reason == .archivedByUser ? "archiving" : "removing") \(reference.url)"
        do {
            return try write(operation) { db in
                let table = reference.kind == .landmark ? "landmark" : "collection"
                let live = try Bool.fetchOne(db, sql: "SELECT 1 FROM \(table) WHERE id = ? AND removal_id IS NULL", arguments: [reference.id]) ?? false
                guard live else { throw CatalogStoreError.unknownEntity(reference) }
                let id = try Self.insertRemoval(db, reason: reason, entities: [reference])
                try db.execute(sql: "UPDATE \(table) SET removal_id = ? WHERE id = ?", arguments: [id, reference.id])
                try Self.bumpGeneration(db)
                return try Self.removal(id: id, db)
            }
        } catch let error as CatalogStoreError { throw error } catch {
            throw .database(operation, reason: Self.message(error))
        }
    }
}
