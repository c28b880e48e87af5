import Catalog

extension IncrementalVisualIndex {
    /// The index of `store`'s current version opened from the visual-index snapshot at
    /// `path` without reading the whole catalog: the snapshot mapped as the base when it is
    /// of the current generation, or of an earlier generation of the same catalog brought up
    /// to date from the change log (``updated(from:)``) while the changes since are small
    /// (``needsCompaction(minimumViews:)`` false). What a search's cold start and a
    /// replica's start use, so an `--add` run of a few images to a large catalog leaves the
    /// snapshot in place instead of rewriting it.
    ///
    /// - Returns: `nil` when the snapshot is missing, damaged, of another catalog, partition
    ///   (the store's ``EntityStore/partition``) or layout,
    ///   or too far behind (the change log does not reach back to it, or the delta would need
    ///   compaction): build the index from the catalog instead.
    /// - Throws: the store's error when its version or changes cannot be read.
    /// - Complexity: the snapshot's checks on open (``VisualIndexSnapshot/load(path:expecting:minimumViewQuality:)``),
    ///   plus O(changes since + their views) when behind.
    public static func opened(snapshotAt path: String, store: any EntityStore,
                              minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) async throws(CatalogStoreError) -> IncrementalVisualIndex? {
        let version = try await store.catalogVersion()
        guard case .loaded(let base) = VisualIndexSnapshot.load(path: path, expecting: version, minimumViewQuality: minimumViewQuality,
                                                                acceptingEarlierGenerations: true, partition: store.partition) else { return nil }
        let index = IncrementalVisualIndex(base: base)
        guard base.version.generation != version.generation else { return index }
        guard let updated = try await index.updated(from: store), !updated.needsCompaction() else { return nil }
        return updated
    }
}
