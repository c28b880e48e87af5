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
    /// with foreign margins). Query views below ``PDQHash/minimumUsefulQuality`` are
    /// skipped; a query with no informative view matches nothing.
    ///
    /// Stage 1 computes the three Hamming distances per view with the SIMD kernels of
    /// ``HammingScan``; only views whose hash part alone can still reach `minimumScore`
    /// (exact bound: the histogram term is never negative) get the histogram distance and
    /// the full score. Cost: O(views + full views × extra query views) popcount work,
    /// about 2 ms for 1,000,000 views on one AVX-512 core.
    ///
    /// - Parameters:
    ///   - minimumScore: the least score reported; pass the no-match threshold for
    ///     searching, 0 to rank everything (evaluation).
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
        let informative = query.views.indices.filter { query.views[$0].quality >= PDQHash.minimumUsefulQuality }
        let bound = scoring.maximumFusedDistance(forScore: minimumScore)
        // Float bound, loosened by a hair so rounding never drops a view the exact Double test keeps.
        let floatBound = Float(bound) * (1 + 1e-5) + 1e-6
        let a = Float(scoring.pdqWeight / 256), b = Float(scoring.pHashWeight / 64), c = Float(scoring.dHashWeight / 64)
        let clock = ContinuousClock()

        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: 3 * Self.chunkSize) { buffer in
            let pdqOut = UnsafeMutableBufferPointer(rebasing: buffer[0..<Self.chunkSize])
            let pOut = UnsafeMutableBufferPointer(rebasing: buffer[Self.chunkSize..<(2 * Self.chunkSize)])
            let dOut = UnsafeMutableBufferPointer(rebasing: buffer[(2 * Self.chunkSize)...])
            passes: for queryIndex in informative {
                let view = query.views[queryIndex]
                let fullOnly = queryIndex != informative.first || view.region != .full
                let pdqCodes = fullOnly ? fullPDQWords : pdqWords
                let pCodes = fullOnly ? fullPHashes : pHashes
                let dCodes = fullOnly ? fullDHashes : dHashes
                let count = pCodes.count
                var start = 0
                while start < count {
                    if let deadline, clock.now >= deadline {
                        partial = true
                        break passes
                    }
                    let n = min(Self.chunkSize, count - start)
                    pdqCodes.withUnsafeBufferPointer { all in
                        HammingScan.distances(from: view.pdq, to: UnsafeBufferPointer(rebasing: all[(4 * start)..<(4 * (start + n))]), into: pdqOut, using: isa)
                    }
                    pCodes.withUnsafeBufferPointer { all in
                        HammingScan.distances(from: view.pHash, to: UnsafeBufferPointer(rebasing: all[start..<(start + n)]), into: pOut, using: isa)
                    }
                    dCodes.withUnsafeBufferPointer { all in
                        HammingScan.distances(from: view.dHash, to: UnsafeBufferPointer(rebasing: all[start..<(start + n)]), into: dOut, using: isa)
                    }
                    for i in 0..<n {
                        let hashPart = a * Float(pdqOut[i]) + b * Float(pOut[i]) + c * Float(dOut[i])
                        if hashPart <= floatBound {
                            let viewIndex = fullOnly ? Int(fullViews[start + i]) : start + i
                            consider(
                                viewIndex: viewIndex, queryIndex: queryIndex, queryView: view,
                                pdq: Int(pdqOut[i]), pHash: Int(pOut[i]), dHash: Int(dOut[i]),
                                scoring: scoring, minimumScore: minimumScore, best: &best)
                        }
                    }
                    compared += n
                    start += n
                }
            }
        }
        var matches = best.sorted { ($0.value.score, $1.key) > ($1.value.score, $0.key) }.map(\.value)
        if matches.count > limit { matches.removeSubrange(limit...) }
        return IndexSearchOutcome(matches: matches, isPartial: partial, comparedPairs: compared, queryIsInformative: !informative.isEmpty)
    }

    /// Scores one candidate pair exactly and keeps it if it is its landmark's best so far
    /// (earlier pairs win ties, so the outcome does not depend on anything but scan order).
    @inline(__always)
    private func consider(
        viewIndex: Int, queryIndex: Int, queryView: FingerprintView, pdq: Int, pHash: Int, dHash: Int,
        scoring: SimilarityScoring, minimumScore: Double, best: inout [Int32: LandmarkMatch]
    ) {
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
