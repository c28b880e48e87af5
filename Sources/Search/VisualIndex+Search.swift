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
    /// - Parameters:
    ///   - minimumScore: the least score reported; pass the no-match threshold for
    ///     searching, 0 to rank every landmark with a view inside the PDQ radius.
    ///   - deadline: when reached between two chunks the scan stops and the outcome is
    ///     partial.
    ///   - limit: at most this many matches are returned (the best ones).
    public func search(
        _ query: Fingerprint, scoring: SimilarityScoring = .default, minimumScore: Double,
        deadline: ContinuousClock.Instant? = nil, limit: Int = .max, using isa: InstructionSet = .best
    ) -> IndexSearchOutcome {
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
            let codes = pass.queries.map { query.views[$0].pdq }
            let subsetCount = pass.fullOnly ? fullViewCount : viewCount
            let fullViews = self.fullViews, pHashes = self.pHashes, dHashes = self.dHashes
            let scanned = scanBatches(codes, in: pass.fullOnly ? .fullFrames : .all, maxDistance: radius, deadline: deadline, using: isa) { batch in
                // Most hits are chance pairs at the edge of the radius, each needing its own pHash
                // and dHash lines: ask for all of the batch's lines first, then score in order.
                for k in 0..<batch.count {
                    let position = batch[k].index
                    let viewIndex = pass.fullOnly ? Int(fullViews[position]) : position
                    HammingScan.prefetch(pHashes.baseAddress! + viewIndex)
                    HammingScan.prefetch(dHashes.baseAddress! + viewIndex)
                }
                for k in 0..<batch.count {
                    let hit = batch[k]
                    let viewIndex = pass.fullOnly ? Int(fullViews[hit.index]) : hit.index
                    let queryIndex = pass.queries[hit.query]
                    consider(viewIndex: viewIndex, queryIndex: queryIndex, queryView: query.views[queryIndex], pdq: hit.distance,
                             scoring: scoring, minimumScore: minimumScore, best: &best)
                }
            }
            compared += scanned * codes.count
            if scanned < subsetCount { partial = true; break }
        }
        var matches = best.sorted { ($0.value.match.score, $1.key) > ($1.value.match.score, $0.key) }.map(\.value.match)
        if matches.count > limit { matches.removeSubrange(limit...) }
        return IndexSearchOutcome(matches: matches, isPartial: partial, comparedPairs: compared, queryIsInformative: !informative.isEmpty)
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
    @discardableResult
    public func scan(
        _ codes: [PDQHash], in subset: ViewSubset, maxDistance: Int, deadline: ContinuousClock.Instant? = nil,
        using isa: InstructionSet = .best, _ body: (_ query: Int, _ view: Int, _ distance: Int) -> Void
    ) -> Int {
        let fullViews = self.fullViews, fullOnly = subset == .fullFrames
        return scanBatches(codes, in: subset, maxDistance: maxDistance, deadline: deadline, using: isa) { batch in
            for k in 0..<batch.count {
                let hit = batch[k]
                body(hit.query, fullOnly ? Int(fullViews[hit.index]) : hit.index, hit.distance)
            }
        }
    }

    /// ``scan(_:in:maxDistance:deadline:using:_:)`` handing over the kernel's hits a batch at a
    /// time (indices are positions in the subset: view numbers for ``ViewSubset/all``, indices
    /// into ``fullViews`` for ``ViewSubset/fullFrames``). Returns the views scanned.
    func scanBatches(
        _ codes: [PDQHash], in subset: ViewSubset, maxDistance: Int, deadline: ContinuousClock.Instant?,
        using isa: InstructionSet, _ body: (HammingScan.PlaneMatchBatch) -> Void
    ) -> Int {
        let fullOnly = subset == .fullFrames
        let planes = fullOnly ? fullPDQPlanes : pdqPlanes
        let count = fullOnly ? fullViewCount : viewCount
        let clock = ContinuousClock()
        var start = 0
        while start < count {
            if let deadline, clock.now >= deadline { return start }
            let n = min(Self.chunkSize, count - start)
            // The chunk's planes are the same four planes offset by `start` (stride `count`);
            // the batch's indices count from the chunk's start, so they are shifted back.
            HammingScan.forEachPlaneMatchBatch(of: codes, planes: UnsafeBufferPointer(rebasing: planes[start...]), stride: count, count: n,
                                               maxDistance: maxDistance, using: isa) { batch in
                body(batch.shifted(by: start))
            }
            start += n
        }
        return count
    }

    /// A landmark's best pair so far and where it came from (for the tie rule).
    struct Candidate {
        var match: LandmarkMatch
        var viewIndex: Int
    }

    /// Scores one candidate pair (within the PDQ radius) exactly and keeps it if it is its landmark's best so far.
    /// Equal scores go to the pair with the lower (query view, catalog view) numbers, the order a one-query-at-a-time
    /// scan meets them in, so the outcome depends neither on the order hits arrive in nor on the instruction set.
    @inline(__always)
    private func consider(
        viewIndex: Int, queryIndex: Int, queryView: FingerprintView, pdq: Int,
        scoring: SimilarityScoring, minimumScore: Double, best: inout [Int32: Candidate]
    ) {
        let pHash = (queryView.pHash ^ pHashes[viewIndex]).nonzeroBitCount
        let dHash = (queryView.dHash ^ dHashes[viewIndex]).nonzeroBitCount
        // Colour only adds distance: a pair whose structure alone scores below the minimum is
        // dropped before its 64-byte histogram row is read (most chance hits of the PDQ radius).
        guard scoring.score(fusedDistance: scoring.structuralDistance(pdq: pdq, pHash: pHash, dHash: dHash)) >= minimumScore else { return }
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
        if let current = best[owner] {
            if current.match.score > score { return }
            if current.match.score == score && (current.match.queryViewIndex, current.viewIndex) < (queryIndex, viewIndex) { return }
        }
        best[owner] = Candidate(
            match: LandmarkMatch(
                landmarkID: landmarkID(Int(owner)), score: score, pdqDistance: pdq, pHashDistance: pHash, dHashDistance: dHash,
                histogramDistance: histogram, queryViewIndex: queryIndex, catalogRegion: region(ofView: viewIndex)),
            viewIndex: viewIndex)
    }
}
