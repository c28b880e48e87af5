import Catalog

extension IncrementalVisualIndex {
    /// Changed landmarks up to which their membership is read for them alone, in batched
    /// reads (``EntityStore/collections(containingEach:)``: O(those landmarks + the members of
    /// the collections holding them)); above it (a re-index of a large share of the catalog),
    /// all collections are read once (O(every membership): at a million landmarks in 100
    /// collections, 13.9 s of a replica's update for 1,000 added images, against 63 ms batched).
    static let membershipBatchLimit = 10_000

    /// This index brought up to the store's current version by reading only what changed
    /// since its generation (``EntityStore/changes(since:)``, the changed collections and
    /// the changed landmarks' membership), read consistently: the reads are retried when
    /// the catalog changes in between.
    ///
    /// - Returns: `self` when nothing changed; `nil` when the changes cannot be applied
    ///   (the change log does not reach back to this generation, another catalog, or the
    ///   catalog kept changing): build a new base from the store instead.
    /// - Throws: the store's error (the index in use stays valid).
    /// - Complexity: O(changes + their images + changed collections' members) read, plus
    ///   ``applying(_:collections:membership:)``.
    public func updated(from store: any EntityStore) async throws(CatalogStoreError) -> IncrementalVisualIndex? {
        for _ in 0..<3 {
            let changes = try await store.changes(since: version.generation)
            guard changes.isComplete, changes.version.catalogID == version.catalogID else { return nil }
            if changes.version == version && changes.landmarkIDs.isEmpty && changes.collectionIDs.isEmpty { return self }
            let collections = try await store.collections(ids: changes.collectionIDs)
            let live = changes.fingerprints.map(\.landmarkID)
            var membership: [String: [String]] = [:]
            if live.count <= Self.membershipBatchLimit {
                membership = try await store.collections(containingEach: live).mapValues { $0.map(\.id) }
            } else {
                let wanted = Set(live)
                for collection in try await store.allCollections() {
                    for member in Set(collection.landmarkIDs) where wanted.contains(member) { membership[member, default: []].append(collection.id) }
                }
            }
            guard try await store.catalogVersion() == changes.version else { continue }
            return applying(changes, collections: collections, membership: membership)
        }
        return nil
    }
}
