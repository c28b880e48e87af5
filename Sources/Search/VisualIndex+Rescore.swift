import Fingerprints

extension VisualIndex {
    /// The exhaustive scan's answer restricted to `landmarks`: every pair the scan would
    /// compare between the query and those landmarks' views (the query's informative
    /// full-frame views against every view, its other informative views against full-frame
    /// views), gated by the PDQ radius and scored by the same rule, so each landmark found
    /// gets exactly the score, distances and region the scan gives it. What the first stage
    /// (``CandidateIndex``) hands its candidates to.
    ///
    /// - Parameters:
    ///   - landmarks: landmark numbers (any order; each scored once).
    ///   - viewStarts: landmark n owns views `viewStarts[n] ..< viewStarts[n + 1]`
    ///     (``CandidateIndex/viewStarts``).
    /// - Throws: ``VisualIndexDamage`` when a block of a mapped snapshot read here does not
    ///   match its checksum.
    /// - Complexity: O(candidate views × informative query views), reading only the
    ///   candidates' rows (a few cache lines per landmark and section).
    func rescore(
        _ query: Fingerprint, landmarks: [Int32], viewStarts: UnsafeBufferPointer<UInt32>, scoring: SimilarityScoring,
        minimumScore: Double, limit: Int
    ) throws(VisualIndexDamage) -> IndexSearchOutcome {
        let informative = query.views.indices.filter { query.views[$0].quality >= minimumViewQuality }
        let fullQueries = informative.filter { query.views[$0].region == .full }
        let radius = max(0, min(256, scoring.candidatePDQRadius))
        let regionTable = section(layout.regionTable, 4 * layout.regions, as: Float.self)
        let fullRegion = (0..<layout.regions).first {
            ViewRegion(x: regionTable[4 * $0], y: regionTable[4 * $0 + 1], width: regionTable[4 * $0 + 2], height: regionTable[4 * $0 + 3]) == .full
        }.map(UInt32.init) ?? UInt32.max
        let planes = pdqPlanes, regions = regionNumbers, n = layout.views
        // The query codes each kind of catalog view meets, in raw buffers: the loop below runs
        // once per (candidate view, query view), a million times for 1,024 candidates, and
        // choosing between two arrays there retains and releases one every time.
        let allCodes = UnsafeMutableBufferPointer<(index: Int, pdq: PDQHash)>.allocate(capacity: informative.count)
        defer { allCodes.deallocate() }
        var fullCount = 0
        for q in fullQueries { allCodes[fullCount] = (q, query.views[q].pdq); fullCount += 1 }
        var next = fullCount
        for q in informative where query.views[q].region != .full { allCodes[next] = (q, query.views[q].pdq); next += 1 }
        let everyCode = UnsafeBufferPointer(allCodes), fullCodes = UnsafeBufferPointer(rebasing: allCodes[..<fullCount])
        var best: [Int32: Candidate] = [:]
        var compared = 0
        for owner in Set(landmarks).sorted() where owner >= 0 && Int(owner) < layout.landmarks {
            let first = Int(viewStarts[Int(owner)]), end = min(Int(viewStarts[Int(owner) + 1]), n)
            guard first < end else { continue }
            if let checker = storage.checker {
                for w in 0..<4 {
                    let start = layout.pdqPlanes + 8 * (w * n + first)
                    try checker.check(start..<start + 8 * (end - first))
                }
                try checker.check(layout.pHashes + 8 * first ..< layout.pHashes + 8 * end)
                try checker.check(layout.dHashes + 8 * first ..< layout.dHashes + 8 * end)
            }
            for v in first..<end {
                let code = PDQHash(words: SIMD4(planes[v], planes[n + v], planes[2 * n + v], planes[3 * n + v]))
                // The scan's two passes: full-frame query views against every view, the
                // others against full-frame views only.
                let codes = regions[v] == fullRegion ? everyCode : fullCodes
                for (q, pdq) in codes {
                    let d = code.distance(to: pdq)
                    if d <= radius {
                        try consider(viewIndex: v, queryIndex: q, queryView: query.views[q], pdq: d, scoring: scoring,
                                     minimumScore: minimumScore, best: &best)
                    }
                }
                compared += codes.count
            }
        }
        var matches = best.sorted { ($0.value.match.score, $1.key) > ($1.value.match.score, $0.key) }.map(\.value.match)
        if matches.count > limit { matches.removeSubrange(limit...) }
        return IndexSearchOutcome(matches: matches, isPartial: false, comparedPairs: compared, queryIsInformative: !informative.isEmpty,
                                  scannedEveryView: false)
    }
}
