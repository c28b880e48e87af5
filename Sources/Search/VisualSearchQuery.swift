import Catalog
import Fingerprints
import PixelBuffers

/// The visual search, in App Intents' `IntentValueQuery` shape: given what a person
/// selected (a ``SemanticContentDescriptor``), a ranked, paged list of matching landmarks
/// and the collections holding them (``VisualSearchResult``).
///
/// How a page is made:
/// 1. The descriptor's pixels are fingerprinted (query layout); no pixels → empty page.
/// 2. The ``VisualIndex`` of the current catalog version (built on first use, rebuilt
///    after any change) is scanned within the page's deadline; landmarks scoring at least
///    the no-match threshold (or the page's ``PageRequest/minimumScore``) are kept (``SimilarityScoring``).
/// 3. Labels boost matching landmarks whose keywords they name; collections are scored
///    from their matching members; landmarks and collections are interleaved by score
///    (see ``SearchConfiguration`` and the ranking rules there).
/// 4. The requested page is cut from that ranking; ``ResultPage/nextPageToken`` continues
///    it. Complete rankings are cached per (query, catalog version), so later pages cost
///    no rescan, and identical searches running at once scan once (the others wait for the
///    first's ranking when it is due within their deadline).
///
/// Thread-safe; share one instance per store.
public final class VisualSearchQuery: Sendable {
    /// The catalog searched.
    public let store: any EntityStore
    /// Ranking constants.
    public let configuration: SearchConfiguration
    /// Most threads one search scans the index on (see
    /// ``VisualIndex/search(_:scoring:minimumScore:deadline:limit:threads:using:)``; catalogs
    /// under ``VisualIndex/minimumViewsPerThread`` views per thread use fewer). Default: the
    /// cores this process may use; callers running several searches at once give each a share.
    public let scanThreads: Int
    /// The matches of the catalog's other partitions, for a replica holding one partition
    /// (``PartitionMatchSource``); `nil` when the index holds the whole catalog.
    public let otherPartitions: (any PartitionMatchSource)?
    private let queryFingerprint: @Sendable (PixelBuffer) -> Fingerprint
    private let cache: SearchIndexCache

    /// Creates a query over `store`.
    ///
    /// - Parameter fingerprint: how a query's pixels become a fingerprint (normally
    ///   ``ImageFingerprinter/query``'s `fingerprint(of:)`).
    /// - Parameter snapshotPath: where the visual-index snapshot of this catalog lives
    ///   (``VisualIndexSnapshot/path(forCatalogAt:)``); with it, a cold start maps the index
    ///   instead of reading every fingerprint, and rewrites a stale one. `nil`: always build
    ///   in memory.
    /// - Parameter snapshotReplacement: what that rewrite may replace at `snapshotPath`
    ///   (``SnapshotReplacement/anyFile`` only for the catalog's own path).
    public init(store: any EntityStore, configuration: SearchConfiguration = SearchConfiguration(), snapshotPath: String? = nil,
                snapshotReplacement: SnapshotReplacement = .snapshotsOnly,
                scanThreads: Int = AvailableCores.count, fingerprint: @escaping @Sendable (PixelBuffer) -> Fingerprint) {
        self.store = store
        self.configuration = configuration
        self.scanThreads = max(1, scanThreads)
        self.queryFingerprint = fingerprint
        self.otherPartitions = nil
        self.cache = SearchIndexCache(store: store, minimumViewQuality: configuration.scoring.minimumViewQuality, snapshotPath: snapshotPath,
                                      snapshotReplacement: snapshotReplacement)
    }

    /// Creates a query that always searches `prepared` (never rebuilding it when the store
    /// changes: the owner swaps in a new query over a newly prepared index instead), reading
    /// entities from `store`, and keeps up to `rankingCapacity` complete rankings so later
    /// pages cost no rescan. With `otherPartitions`, `prepared` holds one partition of the
    /// catalog and every page merges the other partitions' matches into its own scan's.
    public init(store: any EntityStore, prepared: PreparedSearchIndex, configuration: SearchConfiguration = SearchConfiguration(),
                rankingCapacity: Int = 64, scanThreads: Int = AvailableCores.count, otherPartitions: (any PartitionMatchSource)? = nil,
                fingerprint: @escaping @Sendable (PixelBuffer) -> Fingerprint) {
        self.store = store
        self.configuration = configuration
        self.scanThreads = max(1, scanThreads)
        self.otherPartitions = otherPartitions
        self.queryFingerprint = fingerprint
        self.cache = SearchIndexCache(store: store, pinned: prepared.state, rankingCapacity: rankingCapacity)
    }

    /// Creates a query over `store` that fingerprints query pixels with `fingerprinter`
    /// (by default Glimpse's query layout, ``ImageFingerprinter/query``).
    public convenience init(store: any EntityStore, configuration: SearchConfiguration = SearchConfiguration(),
                            snapshotPath: String? = nil, snapshotReplacement: SnapshotReplacement = .snapshotsOnly,
                            scanThreads: Int = AvailableCores.count, fingerprinter: ImageFingerprinter = .query) {
        self.init(store: store, configuration: configuration, snapshotPath: snapshotPath, snapshotReplacement: snapshotReplacement,
                  scanThreads: scanThreads) { fingerprinter.fingerprint(of: $0) }
    }

    /// Loads the visual index of the catalog's current version now (maps the snapshot, or
    /// builds the index), so that the first page does not pay for it: a server calls it at
    /// start-up. Pages load it themselves when needed; calling this is never required.
    ///
    /// - Throws: ``VisualSearchError/store(_:)`` when the catalog cannot be read.
    /// - Complexity: O(catalog views) once per catalog version (the snapshot mapped and
    ///   verified, or every fingerprint read and indexed); O(1) when already loaded.
    public func prepare() async throws(VisualSearchError) {
        do { _ = try await cache.current() } catch { throw .store(error) }
    }

    /// How many of the catalog's indexed reference images carry fingerprints of a layout
    /// older than `currentVersion` (hand-made, unversioned fingerprints never count; by default this build's,
    /// ``FingerprintViewLayout/catalogVersion``). Such fingerprints are still searched, but
    /// they lack the views newer layouts added; `glimpse index` on the catalog's source
    /// recomputes them. Reads the index of the current catalog version (mapped or built if needed).
    ///
    /// - Throws: ``VisualSearchError/store(_:)`` when the catalog cannot be read.
    /// - Complexity: O(layout versions) once the index is loaded (loading it: see ``prepare()``).
    public func outdatedFingerprintCount(currentVersion: UInt16 = FingerprintViewLayout.catalogVersion) async throws(VisualSearchError) -> (outdated: Int, total: Int) {
        let state: SearchIndexCache.State
        do { state = try await cache.current() } catch { throw .store(error) }
        let versions = state.index.fingerprintLayoutVersions
        let outdated = versions.filter { $0.key != FingerprintViewLayout.unversioned && $0.key < currentVersion }
        return (outdated.values.reduce(0, +), versions.values.reduce(0, +))
    }

    /// One page of results for what the person selected.
    ///
    /// - Returns: an empty page (no token) when the descriptor has no pixels, or when its
    ///   pixels are blank (uninformative) or match nothing.
    /// - Throws: ``VisualSearchError``: a refused page token (altered, from another query
    ///   or catalog, or stale), a bad page size, or a store failure.
    /// - Complexity: one fingerprint of the selection (O(pixels)), then what
    ///   ``values(for:labels:page:)`` costs.
    public func values(for descriptor: SemanticContentDescriptor, page: PageRequest = PageRequest()) async throws(VisualSearchError) -> ResultPage<VisualSearchResult> {
        let started = ContinuousClock.now
        guard let pixels = descriptor.pixelBuffer else {
            guard (1...1000).contains(page.size) else { throw .invalidPageSize(page.size) }
            return try await emptyPage()
        }
        return try await values(for: queryFingerprint(pixels), labels: descriptor.labels, copyKey: nil, page: page, started: started)
    }

    /// One page of results for an already computed query fingerprint (evaluation, tests,
    /// callers with their own fingerprinting). Same rules as ``values(for:page:)``.
    ///
    /// With a `copyKey` (a whole query image: its bytes' hash, and for a query without a
    /// searchable view its pixels' ``FrameDigest``), every live landmark holding an exact
    /// copy of it ranks with score 1 whatever its information content
    /// (``EntityStore/landmarkIDs(copying:)``), before anything scoring less.
    /// - Complexity: one index scan, O(full-frame query codes × catalog views) compared
    ///   with SIMD, then O(c log c) to rank the c candidates found and one batched store
    ///   read of the page's entities; with a key, one indexed store lookup more.
    public func values(for fingerprint: Fingerprint, labels: [String] = [], copyKey: CopyKey? = nil,
                       page: PageRequest = PageRequest()) async throws(VisualSearchError) -> ResultPage<VisualSearchResult> {
        try await values(for: fingerprint, labels: labels, copyKey: copyKey, page: page, started: ContinuousClock.now)
    }

    /// Every landmark's best visual score for `fingerprint`, at least `minimumScore`, best
    /// first with ties by id; no labels, no paging, no deadline. For calibrating the
    /// threshold and measuring accuracy. With `minimumScore` 0 every landmark having a view
    /// within ``SimilarityScoring/candidatePDQRadius`` is listed (set the radius to 256 in
    /// the configuration to rank the whole catalog).
    /// With a `copyKey`, landmarks holding an exact copy of the query come first with
    /// score 1 (as in ``values(for:labels:copyKey:page:)``).
    /// - Complexity: one index scan, O(full-frame query codes × catalog views), then
    ///   O(m log m) to rank the m matching landmarks; with a key, one indexed store lookup.
    public func landmarkMatches(for fingerprint: Fingerprint, minimumScore: Double = 0, limit: Int = .max,
                                copyKey: CopyKey? = nil) async throws(VisualSearchError) -> [LandmarkMatch] {
        let state: SearchIndexCache.State
        do { state = try await cache.current() } catch { throw .store(error) }
        let scanned = try await searching(state) { index throws(VisualIndexDamage) in
            try index.search(fingerprint, scoring: configuration.scoring, minimumScore: minimumScore, limit: limit, threads: scanThreads,
                             strategy: configuration.strategy).matches
        }.result
        return Array(try await withExactCopies(scanned, copyKey: copyKey).prefix(limit))
    }

    /// This index's own matches for a query another replica fans out to it (the replica
    /// holding one partition answers for that partition): landmarks scoring at least
    /// `minimumScore`, cut to `limit`, in ``PartitionMatches/precedes(_:_:)`` order, with
    /// the memberships of those and of the landmarks among `membershipOf` the index holds.
    /// Never asks ``otherPartitions``; no labels, no exact copies (the asking replica adds them).
    /// With `firstStage`, a profile using the first stage answers from that round of it
    /// alone (``ScanStrategy/forRound(_:)``): the asker decides on every partition's
    /// candidates whether to ask for more.
    ///
    /// - Returns: the matches, the catalog version of the index that found them, how long
    ///   the scan took (the caller fills in its partition's generation and scan time) and,
    ///   when the answer is the candidates', the best candidate's score
    ///   (``IndexSearchOutcome/firstStageBest``).
    /// - Throws: ``VisualSearchError/store(_:)`` or ``VisualSearchError/damagedIndex(_:)``.
    /// - Complexity: one index scan, as ``values(for:labels:copyKey:page:)``; with
    ///   `firstStage`, the first stage's candidates only.
    public func partitionMatches(for fingerprint: Fingerprint, minimumScore: Double, limit: Int, membershipOf: [String],
                                 deadline: ContinuousClock.Instant, firstStage: FirstStageRound? = nil) async throws(VisualSearchError)
        -> (matches: PartitionMatches, version: CatalogVersion, scan: Duration, firstStageBest: Double?) {
        let state: SearchIndexCache.State
        do { state = try await cache.current() } catch { throw .store(error) }
        let started = ContinuousClock.now
        let strategy = firstStage.map { configuration.strategy.forRound($0) } ?? configuration.strategy
        let (used, outcome) = try await searching(state) { index throws(VisualIndexDamage) in
            try index.search(fingerprint, scoring: configuration.scoring, minimumScore: minimumScore, deadline: deadline,
                             limit: limit, threads: scanThreads, strategy: partitionShare(of: strategy, on: index))
        }
        let membership = used.index.collectionsByLandmark(for: outcome.matches.map(\.landmarkID) + membershipOf)
        return (PartitionMatches(matches: outcome.matches, collectionsByLandmark: membership, isPartial: outcome.isPartial),
                used.index.version, ContinuousClock.now - started, outcome.firstStageBest)
    }

    /// `strategy` as this replica's index runs it: for one partition of a catalog, its share
    /// of the first stage's reading and scoring (``ScanStrategy/forPartition(of:lists:views:)``:
    /// the partitions together read about what one first stage of the whole catalog reads);
    /// unchanged for an index of the whole catalog. O(log lists).
    private func partitionShare(of strategy: ScanStrategy, on index: IncrementalVisualIndex) -> ScanStrategy {
        guard let partitions = store.partition?.count, partitions > 1 else { return strategy }
        return strategy.forPartition(of: partitions, lists: index.base.firstStage?.listCount, views: index.base.viewCount)
    }

    /// `search` on `state`'s index. When the index is a mapped snapshot
    /// that `search` found damaged, the index is built from the catalog (the snapshot
    /// rewritten) and `search` runs again on it: a damaged snapshot costs time, never an
    /// answer.
    ///
    /// - Throws: ``VisualSearchError/store(_:)`` when the catalog cannot be read,
    ///   ``VisualSearchError/damagedIndex(_:)`` when the damaged index cannot be rebuilt here.
    private func searching<T>(
        _ state: SearchIndexCache.State, _ search: (IncrementalVisualIndex) throws(VisualIndexDamage) -> T
    ) async throws(VisualSearchError) -> (state: SearchIndexCache.State, result: T) {
        let damage: VisualIndexDamage
        do { return (state, try search(state.index)) } catch { damage = error }
        let rebuilt: SearchIndexCache.State?
        do { rebuilt = try await cache.rebuilt(after: damage) } catch { throw .store(error) }
        guard let rebuilt else { throw .damagedIndex(damage) }
        do { return (rebuilt, try search(rebuilt.index)) } catch { throw .damagedIndex(error) }
    }

    /// A digest of what defines a query: its fingerprint, its labels (normalised), its
    /// exact-copy key and the minimum score it asked for (none: the configured threshold).
    /// - Complexity: O(fingerprint size + labels' length).
    public static func queryDigest(_ fingerprint: Fingerprint, labels: [String], copyKey: CopyKey? = nil, minimumScore: Double? = nil) -> UInt64 {
        var bytes = fingerprint.serialized()
        if let copyKey { bytes += [1] + copyKey.bytes }
        if let minimumScore { withUnsafeBytes(of: minimumScore.bitPattern.littleEndian) { bytes += [2] + $0 } }
        bytes.append(0)
        for label in labels.map(SearchRanking.normalized).filter({ !$0.isEmpty }).sorted() {
            bytes.append(contentsOf: label.utf8)
            bytes.append(0x1F)
        }
        return SipHash24(key: SIMD2(0x7175_6572_7964_6967, 0x6573_7420_6b65_7931)).hash(bytes)
    }

    /// The complete ranking of one search: this index's matches (and the other partitions',
    /// for a replica of one partition), the exact copies first, ranked with their
    /// collections; and whether it may be kept (complete, every partition at this version).
    /// Records the scan's and the ranking's times in `times`; `state` becomes the rebuilt
    /// index when the search found its own damaged.
    ///
    /// - Complexity: one index search, one batched landmark read.
    private func makeRanking(
        _ fingerprint: Fingerprint, labels: [String], copyKey: CopyKey?, threshold: Double, deadline: ContinuousClock.Instant,
        version: CatalogVersion, state: inout SearchIndexCache.State, times: inout SearchStageTimes
    ) async throws(VisualSearchError) -> (ranking: SearchRanking, keep: Bool) {
        let scanStarted = ContinuousClock.now
        let limit = configuration.maximumLandmarkResults
        let copies = try await exactCopies(copyKey)
        var outcome: IndexSearchOutcome
        var localScan: Duration
        let others: PartitionMatches?
        if let otherPartitions, case .automatic(let parameters) = configuration.strategy, let unsure = parameters.unsureScores {
            // A replica of one partition runs the cascade over every partition's candidates.
            (outcome, others, localScan) = try await acrossPartitions(
                fingerprint, otherPartitions, parameters: parameters, unsure: unsure, threshold: threshold, limit: limit,
                copies: copies, deadline: deadline, state: &state)
        } else {
            // The other partitions (if any) are asked while this one is scanned.
            async let remote = otherPartitions?.matches(for: fingerprint, minimumScore: threshold, limit: limit, membershipOf: copies,
                                                        deadline: deadline, scan: .asProfile)
            (state, outcome) = try await searching(state) { index throws(VisualIndexDamage) in
                try index.search(
                    fingerprint, scoring: configuration.scoring, minimumScore: threshold,
                    deadline: deadline, limit: limit, threads: scanThreads, strategy: partitionShare(of: configuration.strategy, on: index))
            }
            localScan = ContinuousClock.now - scanStarted
            others = await remote
        }
        let local = PartitionMatches(
            matches: outcome.matches, collectionsByLandmark: state.index.collectionsByLandmark(for: outcome.matches.map(\.landmarkID) + copies),
            isPartial: outcome.isPartial)
        let found = if let others { PartitionMatches.merging([local, others], limit: limit) } else { local }
        let rankingStarted = ContinuousClock.now
        times.indexSearch = scanStarted..<rankingStarted
        if otherPartitions != nil, found.missingPartitions.isEmpty {
            let slowest = max(localScan, .microseconds(found.scanMicroseconds.values.max() ?? 0))
            times.fanOutOverhead = (rankingStarted - scanStarted) - slowest
        }
        let matches = Self.withExactCopies(found.matches, copies: copies)
        let landmarks: [LandmarkEntity]
        do { landmarks = try await store.landmarks(ids: matches.map(\.landmarkID)) } catch { throw .store(error) }
        let membership = found.collectionsByLandmark
        var ranked = SearchRanking.rank(
            matches: matches, landmarks: Dictionary(landmarks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
            labels: labels, collectionsByLandmark: membership, configuration: configuration, threshold: threshold,
            isPartial: found.isPartial || !found.missingPartitions.isEmpty)
        ranked.missingPartitions = found.missingPartitions
        times.ranking = rankingStarted..<ContinuousClock.now
        // A ranking missing partitions is not kept (the next page asks them again), nor one
        // with a partition answering from another generation than this index's (a change
        // it had not applied yet: the next search asks it again), nor a partial one.
        let keep = !ranked.isPartial && found.missingPartitions.isEmpty && found.generations.values.allSatisfy({ $0 == version.generation })
        return (ranked, keep)
    }

    /// The cascade of ``CandidateIndex/SearchParameters/unsureScores`` run over this
    /// partition and `others` at once, as one index of the whole catalog runs it over its
    /// own (``PartitionScan``): every partition's first look, answered when the best of all
    /// is sure; then every first stage, answered when the best is out of the unsure range;
    /// else every view of each partition that answered from candidates. The first look's
    /// scan-below score applies to the whole catalog's size (this partition's views times the
    /// partitions). Every round asks the others while this partition searches; every partition
    /// reads and scores its share of the first stage (``ScanStrategy/forPartition(of:lists:views:)``).
    ///
    /// - Returns: this partition's outcome (its rounds' matches merged), the others' answers
    ///   merged, and the time this partition's own searches took.
    /// - Complexity: one to three rounds of requests; the partitions' first stages, and
    ///   their scans of every view only when no candidate is sure.
    private func acrossPartitions(
        _ fingerprint: Fingerprint, _ otherPartitions: any PartitionMatchSource, parameters: CandidateIndex.SearchParameters,
        unsure: Range<Double>, threshold: Double, limit: Int, copies: [String], deadline: ContinuousClock.Instant,
        state: inout SearchIndexCache.State
    ) async throws(VisualSearchError) -> (outcome: IndexSearchOutcome, others: PartitionMatches, localScan: Duration) {
        var local: IndexSearchOutcome?
        var others: PartitionMatches?
        var localScan = Duration.zero
        var best = 0.0
        /// This partition's search with `strategy` (when `searching`), beside the others' `scan`.
        func round(_ strategy: ScanStrategy, searching: Bool, _ scan: PartitionScan) async throws(VisualSearchError) {
            let asked: Bool = switch scan {
            case .firstStage(_, of: let partitions?): !partitions.isEmpty
            case .everyView(let partitions): !partitions.isEmpty
            default: true
            }
            async let remote = asked ? otherPartitions.matches(for: fingerprint, minimumScore: threshold, limit: limit,
                                                              membershipOf: copies, deadline: deadline, scan: scan) : nil
            if searching {
                let started = ContinuousClock.now
                let found: IndexSearchOutcome
                (state, found) = try await self.searching(state) { index throws(VisualIndexDamage) in
                    try index.search(fingerprint, scoring: configuration.scoring, minimumScore: threshold, deadline: deadline, limit: limit,
                                     threads: scanThreads, strategy: partitionShare(of: strategy, on: index))
                }
                localScan += ContinuousClock.now - started
                best = max(best, found.firstStageBest ?? 0, found.matches.first?.score ?? 0)
                local = local.map { Self.merged($0, found, limit: limit) } ?? found
            }
            if let answer = await remote {
                best = max(best, answer.firstStageBest.values.max() ?? 0, answer.matches.first?.score ?? 0)
                others = others.map { PartitionMatches.merging([$0, answer], limit: limit) } ?? answer
            }
        }
        /// The partitions still answering from candidates: this one, and the others by name.
        func onCandidates() -> (local: Bool, others: Set<CatalogPartition>) {
            (local?.firstStageBest != nil, Set((others?.firstStageBest.map(\.key) ?? []).compactMap { try? CatalogPartition(parsing: $0) }))
        }
        var sure = false
        if let look = parameters.firstLook {
            try await round(configuration.strategy.forRound(.firstLook), searching: true, .firstStage(.firstLook, of: nil))
            let views = state.index.viewCount * max(1, store.partition?.count ?? 1)
            sure = best >= max(look.sureScore, unsure.upperBound)
            let hopeless = best < look.scanBelow(forViews: views) && unsure.contains(best)
            if !sure && !hopeless {
                let (mine, theirs) = onCandidates()
                try await round(configuration.strategy.forRound(.full), searching: mine, .firstStage(.full, of: theirs))
                sure = !unsure.contains(best)
            }
        } else {
            try await round(configuration.strategy.forRound(.full), searching: true, .firstStage(.full, of: nil))
            sure = !unsure.contains(best)
        }
        if !sure, local?.queryIsInformative == true {
            let (mine, theirs) = onCandidates()
            if mine { local = nil }   // its scan of every view holds every match its candidates had
            try await round(.exhaustive, searching: mine, .everyView(of: theirs))
        }
        guard let outcome = local else {
            throw .store(.database("searching the partitions", reason: "the cascade across partitions ended without this partition's answer"))
        }
        return (outcome, others ?? PartitionMatches(matches: [], collectionsByLandmark: [:], isPartial: false), localScan)
    }

    /// Two outcomes of one query on one index merged, `b` the later round: its matches and
    /// `a`'s by ``PartitionMatches/bestPerLandmark(_:limit:)`` (a landmark's score is the same
    /// exact score in both); partial or informative if either was; `b`'s first-stage score
    /// (whether the index still answers from candidates). O(m log m).
    private static func merged(_ a: IndexSearchOutcome, _ b: IndexSearchOutcome, limit: Int) -> IndexSearchOutcome {
        var outcome = b
        outcome.matches = PartitionMatches.bestPerLandmark(a.matches + b.matches, limit: limit)
        outcome.isPartial = a.isPartial || b.isPartial
        outcome.comparedPairs = a.comparedPairs + b.comparedPairs
        outcome.queryIsInformative = a.queryIsInformative || b.queryIsInformative
        return outcome
    }

    private func emptyPage() async throws(VisualSearchError) -> ResultPage<VisualSearchResult> {
        let version: CatalogVersion
        do { version = try await store.catalogVersion() } catch { throw .store(error) }
        return ResultPage(items: [], nextPageToken: nil, isPartial: false, totalCount: 0, offset: 0, catalogVersion: version, queryIsSearchable: false)
    }

    private func values(for fingerprint: Fingerprint, labels: [String], copyKey: CopyKey?, page: PageRequest,
                        started: ContinuousClock.Instant) async throws(VisualSearchError) -> ResultPage<VisualSearchResult> {
        guard (1...1000).contains(page.size) else { throw .invalidPageSize(page.size) }
        var state: SearchIndexCache.State
        do { state = try await cache.current() } catch { throw .store(error) }
        let version = state.index.version
        let digest = Self.queryDigest(fingerprint, labels: labels, copyKey: copyKey, minimumScore: page.minimumScore)
        let threshold = page.minimumScore ?? configuration.scoring.noMatchThreshold
        var offset = 0
        if let token = page.token {
            do { offset = try token.payload(for: version, queryDigest: digest).offset } catch { throw .pageToken(error) }
        }

        // The digest names the minimum score asked for; the configuration the default one.
        let key = SearchIndexCache.RankingKey(queryDigest: digest, generation: version.generation, configuration: configuration)
        let ranking: SearchRanking
        var times = SearchStageTimes()
        let deadline = started.advanced(by: page.deadline)
        // A kept ranking, or the one an identical search already running makes (it ends
        // within this one's deadline); else this search makes it, shared with any identical
        // search that starts meanwhile.
        let claim = await cache.claimRanking(for: key, deadline: deadline)
        if case .ready(let kept) = claim {
            ranking = kept
        } else {
            let made: (ranking: SearchRanking, keep: Bool)
            do throws(VisualSearchError) {
                made = try await makeRanking(fingerprint, labels: labels, copyKey: copyKey, threshold: threshold, deadline: deadline,
                                             version: version, state: &state, times: &times)
            } catch {
                if case .make = claim { await cache.finishRanking(nil, for: key) }
                throw error
            }
            ranking = made.ranking
            if case .make = claim {
                await cache.finishRanking(made.keep ? made.ranking : nil, for: key)
            } else if made.keep {
                await cache.remember(made.ranking, for: key)
            }
        }

        let start = min(offset, ranking.entries.count)
        let end = min(start + page.size, ranking.entries.count)
        let slice = ranking.entries[start..<end]
        let collectionIDs = slice.filter { $0.reference.kind == .collection }.map(\.reference.id)
        let collections: [String: CollectionEntity]
        let readsStarted = ContinuousClock.now
        do {
            collections = Dictionary(try await store.collections(ids: collectionIDs).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        } catch { throw .store(error) }
        times.entityReads = readsStarted..<ContinuousClock.now
        let items: [ScoredValue<VisualSearchResult>] = slice.compactMap { entry in
            switch entry.reference.kind {
            case .landmark:
                ranking.landmarks[entry.reference.id].map { ScoredValue(value: .landmark($0), score: entry.score, matchedLabels: entry.matchedLabels) }
            case .collection:
                collections[entry.reference.id].map { ScoredValue(value: .collection($0), score: entry.score) }
            }
        }
        let next = end < ranking.entries.count ? PageToken(offset: end, pageSize: page.size, queryDigest: digest, version: version) : nil
        var result = ResultPage(items: items, nextPageToken: next, isPartial: ranking.isPartial, totalCount: ranking.entries.count, offset: start,
                                catalogVersion: version, queryIsSearchable: fingerprint.wholeImageQuality >= configuration.scoring.minimumViewQuality)
        result.missingPartitions = ranking.missingPartitions
        result.stageTimes = times
        return result
    }

    /// `matches` with every landmark holding an exact copy of the query (`copyKey`) at
    /// score 1 (replacing its scanned match), the copies first, by id.
    /// - Complexity: one indexed store lookup, O(matches).
    private func withExactCopies(_ matches: [LandmarkMatch], copyKey: CopyKey?) async throws(VisualSearchError) -> [LandmarkMatch] {
        Self.withExactCopies(matches, copies: try await exactCopies(copyKey))
    }

    /// The live landmarks holding an exact copy of the query `copyKey` describes, by id;
    /// none without a key.
    /// - Complexity: one indexed store lookup.
    private func exactCopies(_ copyKey: CopyKey?) async throws(VisualSearchError) -> [String] {
        guard let copyKey else { return [] }
        do { return try await store.landmarkIDs(copying: copyKey) } catch { throw .store(error) }
    }

    /// `matches` with the landmarks `copies` at score 1 first (replacing their scanned
    /// matches). O(matches).
    private static func withExactCopies(_ matches: [LandmarkMatch], copies: [String]) -> [LandmarkMatch] {
        guard !copies.isEmpty else { return matches }
        let copied = Set(copies)
        return copies.map {
            LandmarkMatch(landmarkID: $0, score: 1, pdqDistance: 0, pHashDistance: 0, dHashDistance: 0, histogramDistance: 0,
                          queryViewIndex: 0, catalogRegion: .full)
        } + matches.filter { !copied.contains($0.landmarkID) }
    }
}
