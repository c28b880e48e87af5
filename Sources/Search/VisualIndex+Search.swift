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
    /// Pairs compared: the query's full-frame views (the full frame in each orientation the
    /// query layout derived) against every catalog view (finds a query that is a crop of a
    /// catalog image, in any orientation), and its other views (inner crops, in each
    /// orientation) against catalog full-frame views only (finds a catalog image shown
    /// with foreign margins). Query views below ``minimumViewQuality`` are skipped; a query
    /// with no informative view matches nothing.
    ///
    /// Stage 1 compares the PDQ distance of every view with the radius inside the SIMD kernel
    /// of ``HammingScan/forEachMatch(of:in:maxDistance:using:_:)-(PDQHash,_,_,_,_)`` (32 bytes
    /// read per view, nothing written per rejected view: the scan is memory-bound). Views within
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
        var best: [Int32: LandmarkMatch] = [:]
        var compared = 0
        var partial = false
        let informative = query.views.indices.filter { query.views[$0].quality >= minimumViewQuality }
        let radius = max(0, min(256, scoring.candidatePDQRadius))
        let clock = ContinuousClock()

        // Full-frame query views (the full frame in each orientation) against every catalog
        // view, the others (inner crops) against full-frame catalog views only. Chunk by chunk,
        // every query view of a pass scans the chunk while it is in cache: the catalog's codes
        // are read from memory once per pass whatever the number of orientations.
        let passes: [(queries: [Int], codes: [UInt64], fullOnly: Bool)] = [
            (informative.filter { query.views[$0].region == .full }, pdqWords, false),
            (informative.filter { query.views[$0].region != .full }, fullPDQWords, true),
        ]
        scan: for pass in passes where !pass.queries.isEmpty {
            let count = pass.codes.count / 4
            var start = 0
            while start < count {
                if let deadline, clock.now >= deadline {
                    partial = true
                    break scan
                }
                let n = min(Self.chunkSize, count - start)
                // The radius test runs inside the SIMD kernel; only views within it come out.
                pass.codes.withUnsafeBufferPointer { all in
                    let chunk = UnsafeBufferPointer(rebasing: all[(4 * start)..<(4 * (start + n))])
                    for queryIndex in pass.queries {
                        let view = query.views[queryIndex]
                        HammingScan.forEachMatch(of: view.pdq, in: chunk, maxDistance: radius, using: isa) { i, distance in
                            let viewIndex = pass.fullOnly ? Int(fullViews[start + i]) : start + i
                            consider(viewIndex: viewIndex, queryIndex: queryIndex, queryView: view, pdq: distance,
                                     scoring: scoring, minimumScore: minimumScore, best: &best)
                        }
                    }
                }
                compared += n * pass.queries.count
                start += n
            }
        }
        var matches = best.sorted { ($0.value.score, $1.key) > ($1.value.score, $0.key) }.map(\.value)
        if matches.count > limit { matches.removeSubrange(limit...) }
        return IndexSearchOutcome(matches: matches, isPartial: partial, comparedPairs: compared, queryIsInformative: !informative.isEmpty)
    }

    /// Scores one candidate pair (within the PDQ radius) exactly and keeps it if it is its landmark's best so far
    /// (earlier pairs win ties, so the outcome does not depend on anything but scan order).
    @inline(__always)
    private func consider(
        viewIndex: Int, queryIndex: Int, queryView: FingerprintView, pdq: Int,
        scoring: SimilarityScoring, minimumScore: Double, best: inout [Int32: LandmarkMatch]
    ) {
        let pHash = (queryView.pHash ^ pHashes[viewIndex]).nonzeroBitCount
        let dHash = (queryView.dHash ^ dHashes[viewIndex]).nonzeroBitCount
        let histogram = histograms.withUnsafeBufferPointer { rows in
            withUnsafeBytes(of: queryView.histogram.packed) { q in
                var sum: Int32 = 0
                let base = 64 * viewIndex
                for k in 0..<64 { sum &+= abs(Int32(q[k]) &- Int32(rows[base + k])) }
                return Int(sum)
            }
        }
        let score = scoring.score(pdq: pdq, pHash: pHash, dHash: dHash, histogram: histogram)
        guard score >= minimumScore else { return }
        let owner = owners[viewIndex]
        if let current = best[owner], current.score >= score { return }
        best[owner] = LandmarkMatch(
            landmarkID: landmarkIDs[Int(owner)], score: score, pdqDistance: pdq, pHashDistance: pHash, dHashDistance: dHash,
            histogramDistance: histogram, queryViewIndex: queryIndex, catalogRegion: regions[viewIndex])
    }
}
