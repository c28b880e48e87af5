import Catalog

/// What queries share for one catalog version: the visual index and collection
/// membership, built once per version, plus the most recent complete rankings so that
/// "more results" pages do not rescan.
actor SearchIndexCache {
    struct State: Sendable {
        var index: VisualIndex
        /// Landmark id → ids of the live collections holding it, sorted.
        var collectionsByLandmark: [String: [String]]
        /// Layout version → how many indexed reference images have fingerprints of it.
        var fingerprintLayoutVersions: [UInt16: Int] = [:]
    }

    private let store: any EntityStore
    private let minimumViewQuality: Int
    private var state: State?
    /// When set, ``current()`` always answers this state and never reads the store's
    /// version (a server's index, swapped from outside; see ``PreparedSearchIndex``).
    private let pinned: State?
    private var rankings: [(key: RankingKey, ranking: SearchRanking)] = []
    private let rankingCapacity: Int

    struct RankingKey: Hashable {
        var queryDigest: UInt64
        var generation: Int64
        var configuration: SearchConfiguration
    }

    init(store: any EntityStore, minimumViewQuality: Int, rankingCapacity: Int = 16) {
        self.store = store
        self.minimumViewQuality = minimumViewQuality
        self.pinned = nil
        self.rankingCapacity = max(1, rankingCapacity)
    }

    /// A cache that always answers `state` (built elsewhere), keeping up to
    /// `rankingCapacity` complete rankings.
    init(store: any EntityStore, pinned state: State, rankingCapacity: Int) {
        self.store = store
        self.minimumViewQuality = state.index.minimumViewQuality
        self.pinned = state
        self.rankingCapacity = max(1, rankingCapacity)
    }

    /// The state for the store's current version, rebuilt when the catalog changed.
    func current() throws(CatalogStoreError) -> State {
        if let pinned { return pinned }
        let version = try store.catalogVersion()
        if let state, state.index.version == version { return state }
        let built = try Self.build(store: store, minimumViewQuality: minimumViewQuality)
        state = built
        rankings.removeAll()
        return built
    }

    /// Reads one consistent catalog version and builds its state. O(views + memberships).
    static func build(store: any EntityStore, minimumViewQuality: Int) throws(CatalogStoreError) -> State {
        // Read fingerprints and collections; retry if the catalog moved in between.
        for _ in 0..<3 {
            let snapshot = try store.fingerprintSnapshot()
            let collections = try store.allCollections()
            guard try store.catalogVersion() == snapshot.version else { continue }
            var byLandmark: [String: [String]] = [:]
            for collection in collections {
                for id in collection.landmarkIDs { byLandmark[id, default: []].append(collection.id) }
            }
            var versions: [UInt16: Int] = [:]
            for entry in snapshot.entries {
                for fingerprint in entry.fingerprints { versions[fingerprint.layoutVersion, default: 0] += 1 }
            }
            return State(index: VisualIndex(snapshot: snapshot, minimumViewQuality: minimumViewQuality), collectionsByLandmark: byLandmark,
                         fingerprintLayoutVersions: versions)
        }
        throw .database("building the visual index", reason: "the catalog kept changing while it was read")
    }

    /// The cached ranking for `key`, marked most recently used.
    func ranking(for key: RankingKey) -> SearchRanking? {
        guard let index = rankings.lastIndex(where: { $0.key == key }) else { return nil }
        let hit = rankings.remove(at: index)
        rankings.append(hit)
        return hit.ranking
    }

    func remember(_ ranking: SearchRanking, for key: RankingKey) {
        guard !ranking.isPartial else { return }
        rankings.removeAll { $0.key == key }
        rankings.append((key, ranking))
        if rankings.count > rankingCapacity { rankings.removeFirst() }
    }
}
