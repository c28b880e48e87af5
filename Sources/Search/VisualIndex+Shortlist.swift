import Fingerprints

extension VisualIndex {
    /// The landmarks a search through `firstStage` scores exactly: the first stage's
    /// candidates for the query's informative views, or, with
    /// ``CandidateIndex/SearchParameters/shortlist``, its shortlist ranked again by
    /// ``shortlisted(_:queryPDQs:queryIsFullFrame:viewStarts:keep:)``.
    ///
    /// - Returns: landmark numbers, ascending.
    /// - Throws: ``VisualIndexDamage`` when a block of a mapped snapshot read for the
    ///   shortlist does not match its checksum.
    /// - Complexity: the first stage's, plus O(shortlist × views per landmark) PDQ distances.
    func firstStageCandidates(
        for query: Fingerprint, through firstStage: CandidateIndex, parameters: CandidateIndex.SearchParameters, using isa: InstructionSet
    ) throws(VisualIndexDamage) -> [Int32] {
        let informative = query.views.filter { $0.quality >= minimumViewQuality }
        let codes = informative.map {
            CandidateIndex.QueryCode(code: CandidateCode(pHash: $0.pHash, dHash: $0.dHash), isFullFrame: $0.region == .full)
        }
        return try firstStageCandidates(for: codes, pdqs: informative.map(\.pdq), through: firstStage, parameters: parameters, using: isa)
    }

    /// ``firstStageCandidates(for:through:parameters:using:)`` once the query's informative
    /// views are chosen: their codes and, for the shortlist, their PDQ hashes (what `glimpse
    /// debug-first-stage --queries` measures).
    ///
    /// - Precondition: `pdqs` holds one hash per code, or none (then no shortlist is ranked:
    ///   the nearest codes choose).
    /// - Returns: landmark numbers, ascending.
    /// - Throws: ``VisualIndexDamage`` when a block of a mapped snapshot read for the
    ///   shortlist does not match its checksum.
    /// - Complexity: the first stage's, plus O(shortlist × views per landmark) PDQ distances.
    public func firstStageCandidates(
        for codes: [CandidateIndex.QueryCode], pdqs: [PDQHash], through firstStage: CandidateIndex,
        parameters: CandidateIndex.SearchParameters, using isa: InstructionSet = .best
    ) throws(VisualIndexDamage) -> [Int32] {
        guard let shortlist = parameters.shortlist, pdqs.count == codes.count else {
            return firstStage.candidates(for: codes, parameters: parameters, using: isa)
        }
        let proposals = firstStage.proposals(for: codes, parameters: parameters, limit: shortlist, using: isa)
        return try shortlisted(proposals, queryPDQs: pdqs, queryIsFullFrame: codes.map(\.isFullFrame),
                               viewStarts: firstStage.viewStarts, keep: parameters.maximumCandidates)
    }

    /// The `keep` proposals with the lowest estimated fused distance: the PDQ distance from
    /// the query view that reached the landmark's nearest code to the landmark's nearest
    /// view (full-frame views only for a query view that is not the full frame, as the
    /// exhaustive scan pairs them), plus twice the code distance (a pHash or dHash bit
    /// weighs twice a PDQ bit in ``SimilarityScoring``); ties by landmark number.
    ///
    /// The code distance alone leaves the right landmark of a hard query (rotated,
    /// half-cropped) among many landmarks at the same distance near the radius; its PDQ
    /// distance, the larger share of the exact score, tells them apart.
    ///
    /// - Parameters:
    ///   - proposals: ascending landmark order, as ``CandidateIndex/proposals(for:parameters:limit:using:)``
    ///     returns them.
    ///   - queryPDQs, queryIsFullFrame: per query code the proposals refer to.
    /// - Returns: landmark numbers, ascending.
    /// - Throws: ``VisualIndexDamage`` when a block of a mapped snapshot read here does not
    ///   match its checksum.
    /// - Complexity: O(proposals × views per landmark).
    func shortlisted(
        _ proposals: [CandidateIndex.Proposal], queryPDQs: [PDQHash], queryIsFullFrame: [Bool], viewStarts: UnsafeBufferPointer<UInt32>,
        keep: Int
    ) throws(VisualIndexDamage) -> [Int32] {
        guard proposals.count > keep else { return proposals.map(\.landmark) }
        let planes = pdqPlanes, regions = regionNumbers, n = layout.views
        let regionTable = section(layout.regionTable, 4 * layout.regions, as: Float.self)
        let fullRegion = (0..<layout.regions).first {
            ViewRegion(x: regionTable[4 * $0], y: regionTable[4 * $0 + 1], width: regionTable[4 * $0 + 2], height: regionTable[4 * $0 + 3]) == .full
        }.map(UInt32.init) ?? UInt32.max
        // Key: PDQ distance (0…256) + 2 × code distance (0…256), so 0…512.
        var keys = [UInt16](repeating: UInt16.max, count: proposals.count)
        var counts = [Int](repeating: 0, count: 513)
        for (i, proposal) in proposals.enumerated() {
            let owner = Int(proposal.landmark), q = Int(proposal.queryCode)
            guard owner >= 0, owner < layout.landmarks, q < queryPDQs.count else { continue }
            let first = Int(viewStarts[owner]), end = min(Int(viewStarts[owner + 1]), n)
            guard first < end else { continue }
            if let checker = storage.checker {
                for w in 0..<4 {
                    let start = layout.pdqPlanes + 8 * (w * n + first)
                    try checker.check(start..<start + 8 * (end - first))
                }
            }
            let words = queryPDQs[q].words, anyView = queryIsFullFrame[q]
            var least = 256
            for v in first..<end where anyView || regions[v] == fullRegion {
                let d = (planes[v] ^ words[0]).nonzeroBitCount + (planes[n + v] ^ words[1]).nonzeroBitCount
                    + (planes[2 * n + v] ^ words[2]).nonzeroBitCount + (planes[3 * n + v] ^ words[3]).nonzeroBitCount
                least = min(least, d)
            }
            let key = least + 2 * Int(proposal.distance)
            keys[i] = UInt16(key)
            counts[key] += 1
        }
        // A counting cut: every key below it, then those at it in landmark order.
        var cut = 0, below = 0
        while cut < 512 && below + counts[cut] < keep { below += counts[cut]; cut += 1 }
        var atCut = keep - below
        var kept: [Int32] = []
        kept.reserveCapacity(keep)
        for (i, proposal) in proposals.enumerated() where Int(keys[i]) <= cut {
            if Int(keys[i]) < cut {
                kept.append(proposal.landmark)
            } else if atCut > 0 {
                kept.append(proposal.landmark)
                atCut -= 1
            }
        }
        return kept
    }
}
