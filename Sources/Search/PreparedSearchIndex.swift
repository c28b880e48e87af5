import Catalog

/// One catalog version's search structures (the ``VisualIndex`` and collection
/// membership), built once and then immutable: a long-running process (`glimpse serve`)
/// builds the next one off to the side while queries keep using the current one, then
/// swaps (see ``VisualSearchQuery/init(store:prepared:configuration:rankingCapacity:fingerprint:)``).
public struct PreparedSearchIndex: Sendable {
    let state: SearchIndexCache.State

    init(state: SearchIndexCache.State) {
        self.state = state
    }

    /// The catalog state it was built from.
    public var version: CatalogVersion { state.index.version }
    /// Number of searchable views.
    public var viewCount: Int { state.index.viewCount }
    /// Number of landmarks with at least one searchable view.
    public var landmarkCount: Int { state.index.landmarkCount }
    /// Landmarks changed since the index was last built in full (answered from the delta).
    public var changedLandmarkCount: Int { state.index.changedLandmarkCount }
    /// Whether the base index is a memory-mapped snapshot (else built in memory). O(1).
    public var isMapped: Bool { state.index.isMappedSnapshot }
    /// Whether the base index has a first stage (``CandidateIndex``). O(1).
    public var hasFirstStage: Bool { state.index.base.firstStage != nil }
    /// Whether changes applied incrementally have grown enough that the index should be
    /// built in full again (``IncrementalVisualIndex/needsCompaction(minimumViews:)``).
    public var needsCompaction: Bool { state.index.needsCompaction() }

    /// This index brought up to `store`'s current version by reading only what changed
    /// since (``IncrementalVisualIndex/updated(from:)``): what a replica does on a change
    /// notification instead of reading the whole catalog.
    ///
    /// - Returns: `self` when nothing changed; `nil` when the changes cannot be applied
    ///   (build it in full with ``read(from:)`` and ``init(contents:minimumViewQuality:)``).
    /// - Complexity: O(changes + delta views), plus a pass over the base's owners when base
    ///   landmarks change.
    public func updated(from store: any EntityStore) async throws(CatalogStoreError) -> PreparedSearchIndex? {
        guard let index = try await state.index.updated(from: store) else { return nil }
        return PreparedSearchIndex(state: SearchIndexCache.State(index: index))
    }

    /// The catalog data one index is built from: every live landmark's fingerprints and
    /// the live collections, read from one consistent catalog version.
    public struct Contents: Sendable {
        /// The fingerprints, with the version they belong to.
        public let snapshot: FingerprintSnapshot
        /// The live collections with their live members.
        public let collections: [CollectionEntity]

        /// The version the contents belong to.
        public var version: CatalogVersion { snapshot.version }
    }

    /// Reads what ``init(contents:minimumViewQuality:)`` builds from, consistently (read
    /// again if the catalog changes in between): the I/O half of a build, so that a server
    /// can `await` it and then do the CPU-heavy half on a thread of its own.
    ///
    /// - Complexity: O(images + collection memberships), one bulk read of each.
    /// - Throws: ``CatalogStoreError`` when the store fails or keeps changing while read.
    public static func read(from store: any EntityStore) async throws(CatalogStoreError) -> Contents {
        let (snapshot, collections) = try await VisualIndex.readConsistently(from: store)
        return Contents(snapshot: snapshot, collections: collections)
    }

    /// Builds the index of `contents` (CPU only, no I/O).
    /// When `firstStage` wants one (``FirstStagePolicy/wants(views:hadOne:)``, `hadFirstStage`
    /// saying whether the index this one replaces had one), the first stage is built too
    /// (``CandidateIndex/build(from:lists:threads:)``): what a server passes when it builds
    /// its index from the store (``FirstStagePolicy/automatic``). For one of `partitions`
    /// partitions of a catalog the policy weighs the whole catalog's size (this partition's
    /// views times `partitions`), so that every partition decides alike: the cascade runs
    /// across all of them, and one without a first stage would scan all its views in every
    /// round.
    ///
    /// - Complexity: O(views log views + collection memberships), plus the first stage's build.
    public init(contents: Contents, minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality,
                firstStage: FirstStagePolicy = .never, hadFirstStage: Bool = false, partitions: Int = 1) {
        let index = VisualIndex(
            version: contents.snapshot.version, entries: contents.snapshot.entries, collections: contents.collections,
            minimumViewQuality: minimumViewQuality)
        // An index built in memory is never damaged, so the build cannot throw here.
        let (catalogViews, overflow) = index.viewCount.multipliedReportingOverflow(by: max(1, partitions))
        if firstStage.wants(views: overflow ? .max : catalogViews, hadOne: hadFirstStage), let built = try? CandidateIndex.build(from: index), let staged = index.withFirstStage(built) {
            state = SearchIndexCache.State(index: staged)
        } else {
            state = SearchIndexCache.State(index: index)
        }
    }

    /// The index mapped from the snapshot at `snapshotPath`, with its first stage when it has
    /// one, when the snapshot is sound and of `store`'s current version, or of an earlier one
    /// that the change log brings up to date with a small delta
    /// (``IncrementalVisualIndex/opened(snapshotAt:store:minimumViewQuality:)``); `nil`
    /// otherwise. Nothing is written (a server opens its catalog read-only).
    ///
    /// - Complexity: O(1) system calls plus the snapshot's and first stage's checks on open,
    ///   plus O(changes since + their views) when behind.
    /// - Throws: ``CatalogStoreError`` when the store's version or changes cannot be read.
    public static func mapped(from store: any EntityStore, snapshotPath: String,
                              minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) async throws(CatalogStoreError) -> PreparedSearchIndex? {
        guard let index = try await IncrementalVisualIndex.opened(snapshotAt: snapshotPath, store: store, minimumViewQuality: minimumViewQuality) else {
            return nil
        }
        return PreparedSearchIndex(state: SearchIndexCache.State(index: index))
    }

    /// Reads one consistent version of `store` and builds its index, or maps it from the
    /// snapshot at `snapshotPath` when that is sound and current (``VisualIndexSnapshot``).
    ///
    /// - Complexity: O(views + collection memberships), plus decoding the stored fingerprints;
    ///   O(1) plus page faults when mapped from a current snapshot.
    /// - Throws: ``CatalogStoreError`` when the store fails or keeps changing while read.
    public static func build(from store: any EntityStore, snapshotPath: String? = nil,
                             minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) async throws(CatalogStoreError) -> PreparedSearchIndex {
        PreparedSearchIndex(state: try await SearchIndexCache.build(store: store, minimumViewQuality: minimumViewQuality, snapshotPath: snapshotPath))
    }
}
