import Dispatch
import Fingerprints

/// The result of one scan of a ``VisualIndex``.
public struct IndexSearchOutcome: Sendable, Hashable {
    /// Each matching landmark's best view pair, score descending, ties by landmark id.
    public var matches: [LandmarkMatch]
    /// Whether the deadline stopped the scan before every view was compared: `matches`
    /// then covers only part of the catalog.
    public var isPartial: Bool
    /// Number of (query view, catalog view) pairs compared.
    public var comparedPairs: Int
    /// Whether the query had at least one informative view; a blank query matches nothing.
    public var queryIsInformative: Bool
    /// Whether every view was scanned (`false`: only the first stage's candidates were
    /// scored). A search through the first stage whose best candidate scored within
    /// ``CandidateIndex/SearchParameters/unsureScores`` scanned every view too.
    public var scannedEveryView: Bool = true
    /// Whether the first stage's first look (``CandidateIndex/SearchParameters/firstLook``)
    /// answered: its best candidate scored at least its sure score.
    public var answeredAtFirstLook: Bool = false
    /// Whether the first look's glance (``CandidateIndex/SearchParameters/FirstLook/glanceCandidates``)
    /// answered, reading the lists of the query's upright frame alone (then
    /// ``answeredAtFirstLook`` is set too).
    public var answeredAtGlance: Bool = false
    /// With ``ScanStrategy/firstStageOnly(_:)`` on an index with a first stage: the exact
    /// score of the best candidate (0 with none, also when below the minimum score), what the
    /// cascade compares with ``CandidateIndex/SearchParameters/unsureScores``; `nil` when
    /// every view was scanned (the answer is the exhaustive scan's) or the cascade decided.
    public var firstStageBest: Double?
}

extension VisualIndex {
    /// Views scored per kernel call; the deadline is checked between chunks.
    static let chunkSize = 16_384

    /// Finds every landmark whose best view pair scores at least `minimumScore`.
    ///
    /// Pairs compared: the query's full-frame views (the full frame in each orientation the
    /// query layout derived) against every catalog view (finds a query that is a crop of a
    /// catalog image, in any orientation), and its other views (inner crops, in each
    /// orientation) against catalog full-frame views only (finds a catalog image shown
    /// with foreign margins). Query views below ``minimumViewQuality`` are skipped; a query
    /// with no informative view matches nothing.
    ///
    /// Stage 1 compares the PDQ distance of every view with the radius inside the SIMD kernel
    /// of ``HammingScan/forEachPlaneMatchBatch(of:planes:stride:count:maxDistance:using:_:)`` over
    /// the index's PDQ word planes (32 bytes read per view, all query views of a pass compared
    /// in the same pass, nothing written per rejected view; with the 8 full-frame codes of the
    /// default query the scan is bound by the popcounts, not by memory). Views within
    /// ``SimilarityScoring/candidatePDQRadius`` come back a batch at a time: their pHash and
    /// dHash lines are prefetched for the whole batch, then each pair gets its pHash and dHash
    /// distances, and only when those and PDQ alone still reach `minimumScore`
    /// (``SimilarityScoring/structuralDistance(pdq:pHash:dHash:)``, a lower bound of the fused
    /// distance) its histogram distance and the exact fused score. That bound drops most
    /// chance hits at the edge of the radius without reading their 64-byte histogram rows,
    /// and never changes an answer. Cost: O(views + full views × extra query views); see the
    /// benchmark for figures.
    ///
    /// With `threads` > 1 a pass over at least ``minimumViewsPerThread`` views per thread is
    /// cut into that many contiguous ranges scanned at the same time (each reads its own part
    /// of the planes, so a scan bound by one core's memory bandwidth gets the others'), and
    /// their best pairs are merged by the same rule as within one range: the outcome is the
    /// one thread's, match for match.
    ///
    /// - Parameters:
    ///   - minimumScore: the least score reported; pass the no-match threshold for
    ///     searching, 0 to rank every landmark with a view inside the PDQ radius.
    ///   - deadline: when reached between two chunks the scan stops and the outcome is
    ///     partial; a cascade's scan cut so keeps the matches its first stage already
    ///     scored exactly (merged with the scan's by ``PartitionMatches/bestPerLandmark(_:limit:)``),
    ///     so a partial answer holds at least what the first stage alone would answer.
    ///   - limit: at most this many matches are returned (the best ones).
    ///   - threads: most threads one pass scans on (1: the calling thread only); see
    ///     ``AvailableCores`` for the cores this process may use.
    ///   - strategy: with ``ScanStrategy/automatic(_:)`` and a ``firstStage``, only the
    ///     landmarks the first stage proposes are scored (exactly, over all their views;
    ///     ``rescore(_:landmarks:viewStarts:scoring:minimumScore:limit:)``) and the deadline
    ///     and `threads` do not apply, unless the parameters' ``CandidateIndex/SearchParameters/unsureScores``
    ///     holds the best candidate's score (0 when there is none): then every view is
    ///     scanned after all, as described above, and the answer is the scan's (the
    ///     cascade: the first stage answers the queries it is sure of); with a
    ///     ``CandidateIndex/SearchParameters/firstLook``, a first stage reading fewer lists
    ///     comes first and answers when its best candidate scores at least its sure score,
    ///     and sends the search straight to the exhaustive scan when it scores under its
    ///     ``CandidateIndex/SearchParameters/FirstLook/scanBelow`` (within the unsure range, in
    ///     an index of at most ``CandidateIndex/SearchParameters/FirstLook/scanBelowMaximumViews``);
    ///     otherwise every view is scanned. With ``ScanStrategy/firstStageOnly(_:)`` the
    ///     same stages run but the last (every view) never does: the answer is the
    ///     candidates', and ``IndexSearchOutcome/firstStageBest`` holds the best candidate's
    ///     score for the caller's own cascade (an index without a first stage scans every view);
    ///     with ``ScanStrategy/firstLookOnly(_:)``, only the glance and the first look run.
    /// - Throws: ``VisualIndexDamage`` when the index is a mapped snapshot and a block the
    ///   search read does not match its checksum (never for an index built in memory).
    /// - Complexity: O(views × full-frame query codes + full views × other query codes)
    ///   popcounts, divided among `threads`, plus O(candidates) exact scores; on a mapped
    ///   snapshot, O(block) more for each block read for the first time.
    public func search(
        _ query: Fingerprint, scoring: SimilarityScoring = .default, minimumScore: Double,
        deadline: ContinuousClock.Instant? = nil, limit: Int = .max, threads: Int = 1, using isa: InstructionSet = .best,
        strategy: ScanStrategy = .default
    ) throws(VisualIndexDamage) -> IndexSearchOutcome {
        var staged = 0   // pairs compared by the stages that did not answer
        var candidates: [LandmarkMatch] = []   // their matches (exact scores), kept if the scan is cut
        let (chosen, cascade, lookOnly): (CandidateIndex.SearchParameters?, Bool, Bool) = switch strategy {
        case .automatic(let parameters): (parameters, true, false)
        case .firstStageOnly(let parameters): (parameters, false, false)
        case .firstLookOnly(let parameters): (parameters, false, true)
        case .exhaustive: (nil, true, false)
        }
        if let parameters = chosen, let firstStage {
            let unsure = parameters.unsureScores
            let queryCodes = CandidateIndex.queryCodes(of: query, minimumViewQuality: minimumViewQuality)
            // The query's centroid distances, read by the first look and the whole first stage;
            // made once, after the glance (which makes its one view's row alone).
            var wholeTable: CandidateIndex.ProbeTable?
            func probeTable() -> CandidateIndex.ProbeTable {
                if let wholeTable { return wholeTable }
                let table = firstStage.probeTable(for: queryCodes, using: isa)
                wholeTable = table
                return table
            }
            // Candidates scored down to the unsure range's start, so a best candidate within
            // it is seen even below `minimumScore`; an answer keeps only matches reaching that.
            func scoreCandidates(_ parameters: CandidateIndex.SearchParameters,
                                 table: CandidateIndex.ProbeTable? = nil) throws(VisualIndexDamage) -> (IndexSearchOutcome, best: Double) {
                let landmarks = firstStage.candidates(for: table ?? probeTable(), parameters: parameters, using: isa)
                var outcome = try rescore(query, landmarks: landmarks, viewStarts: firstStage.viewStarts, scoring: scoring,
                                          minimumScore: min(minimumScore, unsure?.lowerBound ?? minimumScore), limit: limit)
                let best = outcome.matches.first?.score ?? 0
                outcome.matches.removeAll { $0.score < minimumScore }
                return (outcome, best)
            }
            var hopeless = false   // the first look scored under its scan-below score
            if let look = parameters.forFirstLook, let unsure, let firstLook = parameters.firstLook {
                if firstLook.glanceCandidates > 0, let upright = queryCodes.first(where: \.isFullFrame) {
                    // The first informative full frame: the upright one when it is informative.
                    var glance = look
                    glance.maximumCandidates = firstLook.glanceCandidates
                    var (outcome, best) = try scoreCandidates(glance, table: firstStage.probeTable(for: [upright], using: isa))
                    if best >= max(firstLook.glanceSureScore, unsure.upperBound) {
                        outcome.answeredAtFirstLook = true
                        outcome.answeredAtGlance = true
                        if !cascade { outcome.firstStageBest = best }
                        return outcome
                    }
                    staged += outcome.comparedPairs
                    candidates += outcome.matches
                }
                var (outcome, best) = try scoreCandidates(look)
                let sure = best >= max(firstLook.sureScore, unsure.upperBound)
                if !outcome.queryIsInformative || lookOnly || sure {
                    outcome.answeredAtFirstLook = outcome.queryIsInformative && sure
                    outcome.comparedPairs += staged
                    if !candidates.isEmpty {
                        // The glance's exact scores too: its cut may keep a landmark the first look's does not.
                        outcome.matches = PartitionMatches.bestPerLandmark(outcome.matches + candidates, limit: limit)
                    }
                    if !cascade { outcome.firstStageBest = best }
                    return outcome
                }
                hopeless = best < firstLook.scanBelow(forViews: viewCount) && unsure.contains(best)
                if hopeless && !cascade {
                    // Nothing like the query here: the caller's cascade decides on every index's candidates.
                    outcome.comparedPairs += staged
                    outcome.firstStageBest = best
                    return outcome
                }
                staged += outcome.comparedPairs
                candidates += outcome.matches
            }
            if !hopeless {
                let (answer, best) = try scoreCandidates(parameters)
                var outcome = answer
                guard cascade, let unsure, outcome.queryIsInformative, unsure.contains(best) else {
                    outcome.comparedPairs += staged
                    if !cascade && outcome.queryIsInformative { outcome.firstStageBest = best }
                    return outcome
                }
                staged += outcome.comparedPairs
                candidates += outcome.matches
            }
        }
        var outcome = try scanEveryView(query, scoring: scoring, minimumScore: minimumScore, deadline: deadline, limit: limit,
                                        threads: threads, using: isa)
        outcome.comparedPairs += staged
        if outcome.isPartial && !candidates.isEmpty {
            // A candidate's score is exact and a cut scan's may be a landmark's best over part
            // of its views: the best of both per landmark is never below either.
            outcome.matches = PartitionMatches.bestPerLandmark(outcome.matches + candidates, limit: limit)
        }
        return outcome
    }

    /// The exhaustive scan of ``search(_:scoring:minimumScore:deadline:limit:threads:using:strategy:)``:
    /// every informative query view against every view it is compared with, as that
    /// method describes. O(views × full-frame query codes + full views × other query codes).
    private func scanEveryView(
        _ query: Fingerprint, scoring: SimilarityScoring, minimumScore: Double,
        deadline: ContinuousClock.Instant?, limit: Int, threads: Int, using isa: InstructionSet
    ) throws(VisualIndexDamage) -> IndexSearchOutcome {
        var best: [Int32: Candidate] = [:]
        var compared = 0
        var partial = false
        let informative = query.views.indices.filter { query.views[$0].quality >= minimumViewQuality }
        let radius = max(0, min(256, scoring.candidatePDQRadius))
        // Pass 1: every informative full-frame view (the upright frame and its other
        // orientations) against every view; pass 2: every other informative view (inner
        // crops) against the full-frame views; each pass reads the catalog once.
        let passes: [(queries: [Int], fullOnly: Bool)] = [
            (informative.filter { query.views[$0].region == .full }, false),
            (informative.filter { query.views[$0].region != .full }, true),
        ]

        for pass in passes where !pass.queries.isEmpty {
            let subsetCount = pass.fullOnly ? fullViewCount : viewCount
            let ranges = Self.threadRanges(of: subsetCount, threads: threads)
            var scanned = 0
            if ranges.count == 1 {
                scanned = try scanPass(query, queries: pass.queries, fullOnly: pass.fullOnly, range: ranges[0], maxDistance: radius,
                                   scoring: scoring, minimumScore: minimumScore, deadline: deadline, using: isa, into: &best)
            } else {
                // Each range into a table of its own, then merged by the rule of `consider`
                // (a total order), so neither the split nor the finishing order shows.
                let parts = ThreadParts<Result<(best: [Int32: Candidate], scanned: Int), VisualIndexDamage>>(count: ranges.count)
                DispatchQueue.concurrentPerform(iterations: ranges.count) { part in
                    parts.set(part, Result { () throws(VisualIndexDamage) in
                        var local: [Int32: Candidate] = [:]
                        let done = try scanPass(query, queries: pass.queries, fullOnly: pass.fullOnly, range: ranges[part], maxDistance: radius,
                                                scoring: scoring, minimumScore: minimumScore, deadline: deadline, using: isa, into: &local)
                        return (local, done)
                    })
                }
                for part in 0..<ranges.count {
                    let (found, done) = try parts.take(part).get()
                    scanned += done
                    for (owner, candidate) in found where best[owner].map({ candidate.isBetter(than: $0) }) ?? true {
                        best[owner] = candidate
                    }
                }
            }
            compared += scanned * pass.queries.count
            if scanned < subsetCount { partial = true; break }
        }
        var matches = best.sorted { ($0.value.match.score, $1.key) > ($1.value.match.score, $0.key) }.map(\.value.match)
        if matches.count > limit { matches.removeSubrange(limit...) }
        return IndexSearchOutcome(matches: matches, isPartial: partial, comparedPairs: compared, queryIsInformative: !informative.isEmpty)
    }

    /// Views a thread of a multi-threaded search scans at least (fewer and the pass stays on
    /// fewer threads): about a quarter of a millisecond of one AVX-512 core's scan, long
    /// against waking a thread.
    public static let minimumViewsPerThread = 131_072

    /// `count` views cut into contiguous ranges, one per thread (at most `threads`, each of at
    /// least ``minimumViewsPerThread`` views but the only one), boundaries on multiples of
    /// 64 views. O(threads).
    static func threadRanges(of count: Int, threads: Int) -> [Range<Int>] {
        let parts = max(1, min(threads, count / minimumViewsPerThread))
        let bounds = (0...parts).map { $0 == parts ? count : (count * $0 / parts) & ~63 }
        return (0..<parts).map { bounds[$0]..<bounds[$0 + 1] }
    }

    /// One pass of ``search(_:scoring:minimumScore:deadline:limit:threads:using:)`` over the
    /// views of `range` (positions in the subset): the query views `queries` against every view
    /// (or the full-frame views only), candidates scored into `best`. Returns the views scanned.
    private func scanPass(
        _ query: Fingerprint, queries: [Int], fullOnly: Bool, range: Range<Int>, maxDistance: Int, scoring: SimilarityScoring,
        minimumScore: Double, deadline: ContinuousClock.Instant?, using isa: InstructionSet, into best: inout [Int32: Candidate]
    ) throws(VisualIndexDamage) -> Int {
        let codes = queries.map { query.views[$0].pdq }
        let fullViews = self.fullViews, pHashes = self.pHashes, dHashes = self.dHashes
        var damage: VisualIndexDamage?
        let scanned = try scanBatches(codes, in: fullOnly ? .fullFrames : .all, range: range, maxDistance: maxDistance, deadline: deadline, using: isa) { batch in
            guard damage == nil else { return }
            // Most hits are chance pairs at the edge of the radius, each needing its own pHash
            // and dHash lines: ask for all of the batch's lines first, then score in order.
            // A mapped snapshot's lines are checked first; a pass over every view checked
            // each chunk's lines with its planes, the full-frame pass checks its hits' here
            // (a no-op once their blocks were).
            for k in 0..<batch.count {
                let position = batch[k].index
                let viewIndex = fullOnly ? Int(fullViews[position]) : position
                HammingScan.prefetch(pHashes.baseAddress! + viewIndex)
                HammingScan.prefetch(dHashes.baseAddress! + viewIndex)
            }
            if fullOnly, let checker = storage.checker {
                let pOffset = layout.pHashes, dOffset = layout.dHashes
                for k in 0..<batch.count {
                    let viewIndex = Int(fullViews[batch[k].index])
                    do throws(VisualIndexDamage) {
                        try checker.check(pOffset + 8 * viewIndex ..< pOffset + 8 * viewIndex + 8)
                        try checker.check(dOffset + 8 * viewIndex ..< dOffset + 8 * viewIndex + 8)
                    } catch { damage = error; return }
                }
            }
            for k in 0..<batch.count {
                let hit = batch[k]
                let viewIndex = fullOnly ? Int(fullViews[hit.index]) : hit.index
                let queryIndex = queries[hit.query]
                do throws(VisualIndexDamage) {
                    try consider(viewIndex: viewIndex, queryIndex: queryIndex, queryView: query.views[queryIndex], pdq: hit.distance,
                                 scoring: scoring, minimumScore: minimumScore, best: &best)
                } catch { damage = error; return }
            }
        }
        if let damage { throw damage }
        return scanned
    }

    /// Which catalog views a stage-1 scan compares query codes with.
    public enum ViewSubset: Sendable, Hashable {
        /// Every view (view numbers 0 ..< ``viewCount``).
        case all
        /// The full-frame views only (reported by their view numbers).
        case fullFrames
    }

    /// Stage 1 alone, for callers with their own scoring (several query views × dihedral
    /// orientations): calls `body(query, view, distance)` for every (query code, catalog
    /// view) pair within `maxDistance` PDQ bits, reading the catalog's PDQ planes once for
    /// all `codes` (``HammingScan/forEachPlaneMatch(of:planes:stride:count:maxDistance:using:_:)``).
    /// Hits come in chunks of ``chunkSize`` views, within a chunk view-major then query
    /// order; `view` is a view number (for ``ViewSubset/fullFrames`` too).
    ///
    /// - Complexity: O(views in the subset × codes) popcounts, 32 bytes read per view per
    ///   group of up to ``HammingScan/maximumQueriesPerPass`` codes, plus O(1) per hit.
    /// - Returns: the number of views of the subset scanned: all of them, or fewer when
    ///   `deadline` passed between two chunks.
    /// - Throws: ``VisualIndexDamage`` when a block of a mapped snapshot's PDQ planes does
    ///   not match its checksum (the hits of the chunks before it were delivered).
    @discardableResult
    public func scan(
        _ codes: [PDQHash], in subset: ViewSubset, maxDistance: Int, deadline: ContinuousClock.Instant? = nil,
        using isa: InstructionSet = .best, _ body: (_ query: Int, _ view: Int, _ distance: Int) -> Void
    ) throws(VisualIndexDamage) -> Int {
        let fullViews = self.fullViews, fullOnly = subset == .fullFrames
        let count = fullOnly ? fullViewCount : viewCount
        return try scanBatches(codes, in: subset, range: 0..<count, maxDistance: maxDistance, deadline: deadline, using: isa) { batch in
            for k in 0..<batch.count {
                let hit = batch[k]
                body(hit.query, fullOnly ? Int(fullViews[hit.index]) : hit.index, hit.distance)
            }
        }
    }

    /// ``scan(_:in:maxDistance:deadline:using:_:)`` over the subset positions `range`, handing
    /// over the kernel's hits a batch at a time (indices are positions in the subset: view
    /// numbers for ``ViewSubset/all``, indices into ``fullViews`` for ``ViewSubset/fullFrames``).
    /// Returns the views of `range` scanned (fewer than all when `deadline` passed). A mapped
    /// snapshot's planes are checked a chunk at a time, right before the chunk is scanned
    /// (its blocks are then in the cache the scan reads from).
    func scanBatches(
        _ codes: [PDQHash], in subset: ViewSubset, range: Range<Int>, maxDistance: Int, deadline: ContinuousClock.Instant?,
        using isa: InstructionSet, _ body: (HammingScan.PlaneMatchBatch) -> Void
    ) throws(VisualIndexDamage) -> Int {
        let fullOnly = subset == .fullFrames
        let planes = fullOnly ? fullPDQPlanes : pdqPlanes
        let planesOffset = fullOnly ? layout.fullPDQPlanes : layout.pdqPlanes
        let count = fullOnly ? fullViewCount : viewCount
        let clock = ContinuousClock()
        var start = range.lowerBound
        while start < range.upperBound {
            if let deadline, clock.now >= deadline { return start - range.lowerBound }
            let n = min(Self.chunkSize, range.upperBound - start)
            if let checker = storage.checker {
                for w in 0..<4 {
                    let first = planesOffset + 8 * (w * count + start)
                    try checker.check(first..<first + 8 * n)
                }
                // Chance hits at the edge of the radius touch most lines of a chunk anyway:
                // checked in one sweep with the planes rather than block by block per hit.
                if !fullOnly {
                    try checker.check(layout.pHashes + 8 * start ..< layout.pHashes + 8 * (start + n))
                    try checker.check(layout.dHashes + 8 * start ..< layout.dHashes + 8 * (start + n))
                }
            }
            // The chunk's planes are the same four planes offset by `start` (stride `count`);
            // the batch's indices count from the chunk's start, so they are shifted back.
            HammingScan.forEachPlaneMatchBatch(of: codes, planes: UnsafeBufferPointer(rebasing: planes[start...]), stride: count, count: n,
                                               maxDistance: maxDistance, using: isa) { batch in
                body(batch.shifted(by: start))
            }
            start += n
        }
        return range.count
    }

    /// A landmark's best pair so far and where it came from (for the tie rule).
    struct Candidate {
        var match: LandmarkMatch
        var viewIndex: Int

        /// The order that picks a landmark's pair: the higher score, then the lower (query
        /// view, catalog view) numbers (the order a one-query-at-a-time scan meets them in).
        /// A total order, so the best pair depends neither on the order pairs arrive in nor
        /// on how the scan was split. O(1).
        func isBetter(than other: Candidate) -> Bool {
            Self.isBetter((match.score, match.queryViewIndex, viewIndex), than: (other.match.score, other.match.queryViewIndex, other.viewIndex))
        }

        /// ``isBetter(than:)`` on (score, query view, catalog view), before a candidate is built. O(1).
        @inline(__always)
        static func isBetter(_ a: (score: Double, query: Int, view: Int), than b: (score: Double, query: Int, view: Int)) -> Bool {
            if a.score != b.score { return a.score > b.score }
            return (a.query, a.view) < (b.query, b.view)
        }
    }

    /// Scores one candidate pair (within the PDQ radius) exactly and keeps it if it is its landmark's best so far.
    /// Equal scores go to the pair with the lower (query view, catalog view) numbers, the order a one-query-at-a-time
    /// scan meets them in, so the outcome depends neither on the order hits arrive in nor on the instruction set.
    /// A mapped snapshot's histogram row is checked right before it is read (the pHash and
    /// dHash lines were, by the caller).
    @inline(__always)
    func consider(
        viewIndex: Int, queryIndex: Int, queryView: FingerprintView, pdq: Int,
        scoring: SimilarityScoring, minimumScore: Double, best: inout [Int32: Candidate]
    ) throws(VisualIndexDamage) {
        let pHash = (queryView.pHash ^ pHashes[viewIndex]).nonzeroBitCount
        let dHash = (queryView.dHash ^ dHashes[viewIndex]).nonzeroBitCount
        // Colour only adds distance: a pair whose structure alone scores below the minimum is
        // dropped before its 64-byte histogram row is read (most chance hits of the PDQ radius).
        guard scoring.score(fusedDistance: scoring.structuralDistance(pdq: pdq, pHash: pHash, dHash: dHash)) >= minimumScore else { return }
        try storage.check(layout.histograms + 64 * viewIndex ..< layout.histograms + 64 * viewIndex + 64)
        let rows = histograms
        let histogram = withUnsafeBytes(of: queryView.histogram.packed) { q in
            var sum: Int32 = 0
            let base = 64 * viewIndex
            for k in 0..<64 { sum &+= abs(Int32(q[k]) &- Int32(rows[base + k])) }
            return Int(sum)
        }
        let score = scoring.score(pdq: pdq, pHash: pHash, dHash: dHash, histogram: histogram)
        guard score >= minimumScore else { return }
        let owner = owners[viewIndex]
        if let current = best[owner],
           !Candidate.isBetter((score, queryIndex, viewIndex), than: (current.match.score, current.match.queryViewIndex, current.viewIndex)) {
            return
        }
        best[owner] = Candidate(
            match: LandmarkMatch(
                landmarkID: landmarkID(Int(owner)), score: score, pdqDistance: pdq, pHashDistance: pHash, dHashDistance: dHash,
                histogramDistance: histogram, queryViewIndex: queryIndex, catalogRegion: region(ofView: viewIndex)),
            viewIndex: viewIndex)
    }
}
