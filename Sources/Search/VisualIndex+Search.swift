import Catalog
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
    /// Pairs compared: the query's first (full-frame) view against every catalog view
    /// (finds a query that is a crop of a catalog image), and each further query view
    /// (inner crops) against catalog full-frame views only (finds a catalog image shown
    /// with foreign margins). Query views below ``minimumViewQuality`` are skipped; a query
    /// with no informative view matches nothing.
    ///
    /// Stage 1 compares the PDQ distance of every view with the radius inside the SIMD kernel
    /// of ``HammingScan/forEachPlaneMatch(of:planes:stride:count:maxDistance:using:_:)`` over the
    /// index's PDQ word planes (32 bytes read per view, all query views of a pass compared in
    /// the same pass, nothing written per rejected view). Views within
    /// ``SimilarityScoring/candidatePDQRadius`` then get their pHash, dHash and histogram
    /// distances and the exact fused score. Cost: O(views + full views × extra query
    /// views); see the benchmark for figures.
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
        let clock = ContinuousClock()
        // Pass 1: the first informative view, if it is the full frame, against every view;
        // pass 2: every other informative view against the full-frame views, all in one scan.
        let scansAll = informative.first.map { query.views[$0].region == .full } ?? false
        let passes: [(queries: [Int], fullOnly: Bool)] = [
            (scansAll ? [informative[0]] : [], false),
            (Array(informative.dropFirst(scansAll ? 1 : 0)), true),
        ]

        scan: for pass in passes where !pass.queries.isEmpty {
            let codes = pass.queries.map { query.views[$0].pdq }
            let planes = pass.fullOnly ? fullPDQPlanes : pdqPlanes
            let count = pass.fullOnly ? fullViewCount : viewCount
            let fullViews = self.fullViews
            var start = 0
            while start < count {
                if let deadline, clock.now >= deadline {
                    partial = true
                    break scan
                }
                let n = min(Self.chunkSize, count - start)
                // The radius test runs inside the SIMD kernel; only views within it come out. The
                // chunk's planes are the same four planes offset by `start` (stride `count`).
                let chunk = UnsafeBufferPointer(rebasing: planes[start...])
                HammingScan.forEachPlaneMatch(of: codes, planes: chunk, stride: count, count: n, maxDistance: radius, using: isa) { i, q, distance in
                    let viewIndex = pass.fullOnly ? Int(fullViews[start + i]) : start + i
                    let queryIndex = pass.queries[q]
                    consider(viewIndex: viewIndex, queryIndex: queryIndex, queryView: query.views[queryIndex], pdq: distance,
                             scoring: scoring, minimumScore: minimumScore, best: &best)
                }
                compared += n * codes.count
                start += n
            }
        }
        var matches = best.sorted { ($0.value.match.score, $1.key) > ($1.value.match.score, $0.key) }.map(\.value.match)
        if matches.count > limit { matches.removeSubrange(limit...) }
        return IndexSearchOutcome(matches: matches, isPartial: partial, comparedPairs: compared, queryIsInformative: !informative.isEmpty)
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
