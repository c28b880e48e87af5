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
    private var rankings: [(key: RankingKey, ranking: SearchRanking)] = []
    private static let rankingCapacity = 16

    struct RankingKey: Hashable {
        var queryDigest: UInt64
        var generation: Int64
        var configuration: SearchConfiguration
    }

    init(store: any EntityStore, minimumViewQuality: Int) {
        self.store = store
        self.minimumViewQuality = minimumViewQuality
    }

    /// The state for the store's current version, rebuilt when the catalog changed.
    func current() throws(CatalogStoreError) -> State {
        let version = try store.catalogVersion()
        if let state, state.index.version == version { return state }
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
            let built = State(index: VisualIndex(snapshot: snapshot, minimumViewQuality: minimumViewQuality), collectionsByLandmark: byLandmark,
                              fingerprintLayoutVersions: versions)
            state = built
            rankings.removeAll()
            return built
        }
        throw .database("building the visual index", reason: "the catalog kept changing while it was read")
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
