import Foundation

/// The catalog's rules, written once for every store: what a removal, an archive and an
/// undo write, when the generation moves and what the change log records, and what an index
/// run's commit decides (entities gone from the source, entities revived, entities changed).
/// Stores supply the queries (``CatalogWriteTransaction``) and the transaction around them;
/// the store conformance suite checks that both stores follow these rules alike.
public enum CatalogRules {
    /// Removes (or archives) one live entity: one removal row naming it, the entity marked,
    /// the generation advanced with the entity in the change log. Undo restores it.
    ///
    /// - Throws: ``CatalogStoreError/unknownEntity(_:)`` when it is unknown or already
    ///   removed; anything the transaction throws.
    /// - Complexity: a handful of single-row statements.
    public static func remove(_ reference: EntityReference, reason: Removal.Reason, in transaction: some CatalogWriteTransaction,
                              at date: Date = Date()) async throws -> Removal {
        guard try await transaction.isLive(reference) else { throw CatalogStoreError.unknownEntity(reference) }
        let id = try await transaction.insertRemoval(reason: reason, at: date, entities: [reference])
        try await transaction.markRemoved([reference], by: id)
        try await transaction.advanceGeneration(touching: [reference])
        return try await transaction.removal(id: id)
    }

    /// Undoes the newest removal not undone yet (a person's, or an index run's removal of the
    /// entities gone from its source): its entities are live again, it is marked undone, and
    /// the generation advances with its entities in the change log. `nil` when there is none.
    ///
    /// - Complexity: O(entities of the removal).
    public static func undoLatestRemoval(in transaction: some CatalogWriteTransaction, at date: Date = Date()) async throws -> Removal? {
        guard let removal = try await transaction.latestOpenRemoval() else { return nil }
        try await transaction.restore(removal: removal.id, undoneAt: date)
        try await transaction.advanceGeneration(touching: removal.entities)
        var undone = removal
        undone.isUndone = true
        return undone
    }

    // MARK: Index runs

    /// Whether an index run that finds an existing entity in its source brings it back: only
    /// when the entity was removed for being missing from a source (a person's removal or
    /// archive stands until undone). `reason` is the stored removal reason, `nil` when live.
    /// - Complexity: O(1).
    public static func sourceRevives(removedFor reason: String?) -> Bool {
        reason == Removal.Reason.missingFromSource.rawValue
    }

    /// The live entity ids an index run's source no longer names, sorted: they are removed
    /// together as one undoable ``Removal/Reason/missingFromSource`` removal.
    /// - Complexity: O(live log live).
    public static func goneFromSource(live: some Sequence<String>, source: Set<String>) -> [String] {
        live.filter { !source.contains($0) }.sorted()
    }

    /// The members a collection has after an ``IndexMode/add`` run names it: its `existing`
    /// members in their order, then the source's members it did not hold yet, in source order.
    /// - Complexity: O(existing + source).
    public static func addedMembers(existing: [String], source: [String]) -> [String] {
        var seen = Set(existing)
        return existing + source.filter { seen.insert($0).inserted }
    }

    /// The entities a commit changed for readers: those whose stored digest (fields,
    /// removal, images, members) differs before and after, plus those whose fingerprints
    /// were recomputed, sorted by kind then id. The generation advances only when this is
    /// not empty, and the change log records exactly these.
    /// - Complexity: O(entities log entities).
    public static func changed(before: [EntityReference: String], after: [EntityReference: String],
                               refingerprinted: some Sequence<EntityReference>) -> [EntityReference] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.union(refingerprinted)
            .sorted { ($0.kind.rawValue, $0.id) < ($1.kind.rawValue, $1.id) }
    }
}
