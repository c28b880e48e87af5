import Catalog

/// One catalog version's search structures (the ``VisualIndex`` and collection
/// membership), built once and then immutable: a long-running process (`glimpse serve`)
/// builds the next one off to the side while queries keep using the current one, then
/// swaps (see ``VisualSearchQuery/init(store:prepared:configuration:rankingCapacity:fingerprint:)``).
public struct PreparedSearchIndex: Sendable {
    let state: SearchIndexCache.State

    /// The catalog state it was built from.
    public var version: CatalogVersion { state.index.version }
    /// Number of searchable views.
    public var viewCount: Int { state.index.viewCount }
    /// Number of landmarks with at least one searchable view.
    public var landmarkCount: Int { state.index.landmarkIDs.count }

    /// Reads one consistent version of `store` and builds its index, or maps it from the
    /// snapshot at `snapshotPath` when that is sound and current (``VisualIndexSnapshot``).
    ///
    /// - Complexity: O(views + collection memberships), plus decoding the stored fingerprints;
    ///   O(1) plus page faults when mapped from a current snapshot.
    /// - Throws: ``CatalogStoreError`` when the store fails or keeps changing while read.
    public static func build(from store: any EntityStore, snapshotPath: String? = nil,
                             minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) throws(CatalogStoreError) -> PreparedSearchIndex {
        PreparedSearchIndex(state: try SearchIndexCache.build(store: store, minimumViewQuality: minimumViewQuality, snapshotPath: snapshotPath))
    }
}
