import Catalog

/// What queries share for one catalog version: the visual index (with collection
/// membership), loaded once per version, plus the most recent complete rankings so that
/// "more results" pages do not rescan.
///
/// Cold start: with a snapshot path, the index of the current version is memory-mapped from
/// the snapshot beside the catalog when it is sound and current (``VisualIndexSnapshot``), so
/// the first query does not pay for reading every fingerprint; otherwise it is built from the
/// catalog and the snapshot rewritten (when the folder is writable).
actor SearchIndexCache {
    struct State: Sendable {
        var index: VisualIndex
    }

    private let store: any EntityStore
    private let minimumViewQuality: Int
    private let snapshotPath: String?
    private var state: State?
    private var rankings: [(key: RankingKey, ranking: SearchRanking)] = []
    private static let rankingCapacity = 16

    struct RankingKey: Hashable {
        var queryDigest: UInt64
        var generation: Int64
        var configuration: SearchConfiguration
    }

    init(store: any EntityStore, minimumViewQuality: Int, snapshotPath: String? = nil) {
        self.store = store
        self.minimumViewQuality = minimumViewQuality
        self.snapshotPath = snapshotPath
    }

    /// The state for the store's current version, reloaded when the catalog changed.
    func current() throws(CatalogStoreError) -> State {
        let version = try store.catalogVersion()
        if let state, state.index.version == version { return state }
        let index = try VisualIndexSnapshot.refresh(store: store, path: snapshotPath, minimumViewQuality: minimumViewQuality).index
        let built = State(index: index)
        state = built
        rankings.removeAll()
        return built
    }

    func ranking(for key: RankingKey) -> SearchRanking? {
        rankings.first { $0.key == key }?.ranking
    }

    func remember(_ ranking: SearchRanking, for key: RankingKey) {
        guard !ranking.isPartial else { return }
        rankings.removeAll { $0.key == key }
        rankings.append((key, ranking))
        if rankings.count > Self.rankingCapacity { rankings.removeFirst() }
    }
}
