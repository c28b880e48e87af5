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
        /// The index searched: a built or mapped ``VisualIndex``, possibly brought up to
        /// date incrementally since (a server's replica, see ``PreparedSearchIndex/updated(from:)``).
        var index: IncrementalVisualIndex

        init(index: VisualIndex) { self.index = IncrementalVisualIndex(base: index) }
        init(index: IncrementalVisualIndex) { self.index = index }
    }

    private let store: any EntityStore
    private let minimumViewQuality: Int
    private let snapshotPath: String?
    /// What a build may replace at ``snapshotPath`` when it writes the snapshot.
    private let snapshotReplacement: SnapshotReplacement
    private var state: State?
    /// When set, ``current()`` always answers this state and never reads the store's
    /// version (a server's index, swapped from outside; see ``PreparedSearchIndex``).
    private let pinned: State?
    private var rankings: [(key: RankingKey, ranking: SearchRanking)] = []
    private let rankingCapacity: Int
    /// The rankings being made, by key: when the search making one must end, and the
    /// identical searches waiting for it.
    private var making: [RankingKey: (deadline: ContinuousClock.Instant, waiting: [CheckedContinuation<SearchRanking?, Never>])] = [:]
    /// The catalog version ``current()`` is loading, and the searches waiting for it (they
    /// started while it loaded: one load per version, not one per search).
    private var loading: (version: CatalogVersion, waiting: [CheckedContinuation<Result<State, CatalogStoreError>, Never>])?

    /// What ``claimRanking(for:deadline:)`` found for a search.
    enum RankingClaim: Sendable {
        /// The ranking: kept, or just made by an identical search that was running.
        case ready(SearchRanking)
        /// None: the search makes it, then calls ``finishRanking(_:for:)`` whatever happens
        /// (identical searches starting meanwhile wait for it).
        case make
        /// None to share: the search makes its own (an identical one is running with a later
        /// deadline than this search's, or made a ranking that could not be kept).
        case makeAlone
    }

    struct RankingKey: Hashable {
        var queryDigest: UInt64
        var generation: Int64
        var configuration: SearchConfiguration
    }

    init(store: any EntityStore, minimumViewQuality: Int, snapshotPath: String? = nil, snapshotReplacement: SnapshotReplacement = .snapshotsOnly,
         rankingCapacity: Int = 16) {
        self.store = store
        self.minimumViewQuality = minimumViewQuality
        self.snapshotPath = snapshotPath
        self.snapshotReplacement = snapshotReplacement
        self.pinned = nil
        self.rankingCapacity = max(1, rankingCapacity)
    }

    /// A cache that always answers `state` (built elsewhere), keeping up to
    /// `rankingCapacity` complete rankings.
    init(store: any EntityStore, pinned state: State, rankingCapacity: Int) {
        self.store = store
        self.minimumViewQuality = state.index.minimumViewQuality
        self.snapshotPath = nil
        self.snapshotReplacement = .snapshotsOnly
        self.pinned = state
        self.rankingCapacity = max(1, rankingCapacity)
    }

    /// The state for the store's current version, reloaded when the catalog changed.
    /// Searches starting while it is loaded wait for that load (one load per version,
    /// whatever the number of searches starting cold at once).
    func current() async throws(CatalogStoreError) -> State {
        if let pinned { return pinned }
        let version = try await store.catalogVersion()
        if let state, state.index.version == version { return state }
        if let loading, loading.version == version {
            let loaded = await withCheckedContinuation { (waiter: CheckedContinuation<Result<State, CatalogStoreError>, Never>) in
                if self.loading?.version == version { self.loading?.waiting.append(waiter) } else { waiter.resume(returning: .failure(.database(
                    "loading the visual index", reason: "the load this search waited for ended without it"))) }
            }
            return try loaded.get()
        }
        // Another version's load may be running (the catalog changed meanwhile): this one
        // loads on its own, and only the first is waited for.
        let registered = loading == nil
        if registered { loading = (version, []) }
        let result: Result<State, CatalogStoreError>
        do {
            result = .success(try await Self.build(store: store, minimumViewQuality: minimumViewQuality, snapshotPath: snapshotPath,
                                                   replacing: snapshotReplacement))
        } catch { result = .failure(error) }
        if registered {
            let waiting = loading?.waiting ?? []
            loading = nil
            for waiter in waiting { waiter.resume(returning: result) }
        }
        let built = try result.get()
        state = built
        rankings.removeAll()
        return built
    }

    /// The state built again from the catalog after a search found `damage` in the current
    /// one, a mapped snapshot (which is not opened again but rewritten, when the folder is
    /// writable); the state another query already rebuilt, if any. `nil` for a pinned cache,
    /// which cannot rebuild. O(views).
    func rebuilt(after damage: VisualIndexDamage) async throws(CatalogStoreError) -> State? {
        guard pinned == nil else { return nil }
        let version = try await store.catalogVersion()
        if let state, state.index.version == version, !state.index.isMappedSnapshot { return state }
        let built = State(index: try await VisualIndexSnapshot.refresh(
            store: store, path: snapshotPath, minimumViewQuality: minimumViewQuality, trustingSnapshot: false,
            replacing: snapshotReplacement).index)
        state = built
        rankings.removeAll()
        return built
    }

    /// One consistent catalog version's state: memory-mapped from the snapshot at
    /// `snapshotPath` when it is sound and current or a few changes behind
    /// (``IncrementalVisualIndex/opened(snapshotAt:store:minimumViewQuality:)``), otherwise
    /// built from the catalog (and the snapshot rewritten when the folder is writable and
    /// `replacing` allows it). O(views) when built, O(1) plus the changes since when mapped.
    static func build(store: any EntityStore, minimumViewQuality: Int, snapshotPath: String? = nil,
                      replacing: SnapshotReplacement = .snapshotsOnly) async throws(CatalogStoreError) -> State {
        if let snapshotPath, let opened = try await IncrementalVisualIndex.opened(snapshotAt: snapshotPath, store: store, minimumViewQuality: minimumViewQuality) {
            return State(index: opened)
        }
        return State(index: try await VisualIndexSnapshot.refresh(store: store, path: snapshotPath, minimumViewQuality: minimumViewQuality,
                                                                  replacing: replacing).index)
    }

    /// The cached ranking for `key`, marked most recently used.
    func ranking(for key: RankingKey) -> SearchRanking? {
        guard let index = rankings.lastIndex(where: { $0.key == key }) else { return nil }
        let hit = rankings.remove(at: index)
        rankings.append(hit)
        return hit.ranking
    }

    /// The ranking for `key`: the kept one; or, when an identical search is making it and
    /// must end by `deadline`, the one it makes (waited for: concurrent identical searches
    /// scan once); or ``RankingClaim/make`` when none is being made, the caller making it.
    ///
    /// - Complexity: O(kept rankings), plus the wait for the search making it.
    func claimRanking(for key: RankingKey, deadline: ContinuousClock.Instant) async -> RankingClaim {
        if let kept = ranking(for: key) { return .ready(kept) }
        guard let running = making[key] else {
            making[key] = (deadline, [])
            return .make
        }
        // Only a search that ends within this one's deadline is waited for.
        guard running.deadline <= deadline else { return .makeAlone }
        let shared = await withCheckedContinuation { (waiter: CheckedContinuation<SearchRanking?, Never>) in
            if making[key] != nil { making[key]?.waiting.append(waiter) } else { waiter.resume(returning: nil) }
        }
        return shared.map { .ready($0) } ?? .makeAlone
    }

    /// Ends the making of `key`'s ranking claimed with ``RankingClaim/make``: keeps
    /// `ranking` and hands it to the searches waiting for it, or, `nil` (the search failed,
    /// or its ranking cannot be kept), lets each of them make its own. O(waiting + kept).
    func finishRanking(_ ranking: SearchRanking?, for key: RankingKey) {
        if let ranking { remember(ranking, for: key) }
        let kept = ranking.flatMap { $0.isPartial ? nil : $0 }
        for waiter in making.removeValue(forKey: key)?.waiting ?? [] { waiter.resume(returning: kept) }
    }

    func remember(_ ranking: SearchRanking, for key: RankingKey) {
        guard !ranking.isPartial else { return }
        rankings.removeAll { $0.key == key }
        rankings.append((key, ranking))
        if rankings.count > rankingCapacity { rankings.removeFirst() }
    }
}
