import Foundation

/// The reads and writes of rows that ``CatalogRules`` needs inside one write transaction of
/// a store: queries only, no decisions. The SQLite and PostgreSQL stores each implement it
/// over their own transaction; the rules run inside it, so all of a change commits or none
/// does. Every method may throw whatever the store's driver throws; the store turns that
/// into a ``CatalogStoreError`` once the transaction ends.
public protocol CatalogWriteTransaction: Sendable {
    /// Whether `reference` exists and is not removed. Where the store can, its row stays
    /// locked until the transaction ends, so a concurrent writer cannot remove it too.
    /// - Complexity: one indexed lookup.
    func isLive(_ reference: EntityReference) async throws -> Bool

    /// Records a removal of `entities` (in this order) for `reason` at `date`; returns its id.
    /// - Complexity: one insert.
    func insertRemoval(reason: Removal.Reason, at date: Date, entities: [EntityReference]) async throws -> Int64

    /// Marks `entities` removed by the removal `id`.
    /// - Complexity: O(entities) row updates.
    func markRemoved(_ entities: [EntityReference], by id: Int64) async throws

    /// The newest removal not undone yet, or `nil`.
    /// - Complexity: one indexed lookup.
    func latestOpenRemoval() async throws -> Removal?

    /// Clears the removal `id` from every entity that carries it and marks it undone at `date`.
    /// - Complexity: O(entities of the removal) row updates.
    func restore(removal id: Int64, undoneAt date: Date) async throws

    /// The removal `id` as stored.
    /// - Complexity: one lookup.
    func removal(id: Int64) async throws -> Removal

    /// Adds one to the catalog generation, records `entities` in the change log at the new
    /// generation (each once) and, where the store can, tells listeners once the
    /// transaction commits.
    /// - Complexity: O(entities) inserts.
    func advanceGeneration(touching entities: [EntityReference]) async throws
}
