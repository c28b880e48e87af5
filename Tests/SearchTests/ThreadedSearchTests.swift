import Catalog
import Fingerprints
import InstructionSetTesting
import SyntheticData
import Testing
@testable import Search

/// A search split across threads (``VisualIndex/search(_:scoring:minimumScore:deadline:limit:threads:using:)``
/// with `threads` > 1) gives the one-thread outcome, match for match, on every instruction set,
/// including a landmark whose equal-scoring views lie on both sides of a split.
@Suite struct ThreadedSearchTests {
    @Test func threadRangesCoverTheViewsInContiguousAlignedParts() {
        let minimum = VisualIndex.minimumViewsPerThread
        for count in [0, 1, minimum - 1, 2 * minimum - 1, 2 * minimum, 3 * minimum + 5, 1_000_029] {
            for threads in [1, 2, 3, 8] {
                let ranges = VisualIndex.threadRanges(of: count, threads: threads)
                #expect(ranges.count == max(1, min(threads, count / minimum)), "\(count) views, \(threads) threads")
                #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == count)
                #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound && $1.lowerBound % 64 == 0 })
                if ranges.count > 1 { #expect(ranges.allSatisfy { $0.count >= minimum - 64 }, "\(ranges)") }
            }
        }
    }

    @Test(.comparingEveryInstructionSet) func aSearchSplitAcrossThreadsGivesTheOneThreadAnswer() throws {
        // Every landmark holds its fingerprint twice (62 views), the second copy's regions a
        // little smaller: a view and its copy score the same against any query but report
        // different regions. The landmark across the split has one in each part, and the lower
        // view (the first copy) must win, as on one thread.
        var generator = SeededGenerator(seed: 15)
        let regions = FingerprintViewLayout.catalog.viewRegions
        let entries = (0..<4_300).map { i in
            let fingerprint = SyntheticCatalog.fingerprint(regions: regions, using: &generator)
            var copy = fingerprint
            for k in copy.views.indices {
                let r = copy.views[k].region
                copy.views[k].region = ViewRegion(x: r.x, y: r.y, width: r.width * 0.99, height: r.height * 0.99)
            }
            return FingerprintSnapshot.Entry(landmarkID: "t\(i)", fingerprints: [fingerprint, copy])
        }
        let index = VisualIndex(version: CatalogVersion(catalogID: "threads", generation: 1, tokenKey: SIMD2(1, 2)), entries: entries)
        #expect(index.viewCount == 4_300 * 62)
        let split = VisualIndex.threadRanges(of: index.viewCount, threads: 2)
        try #require(split.count == 2)
        let boundary = split[1].lowerBound, owner = index.owners[boundary]
        let straddling = index.landmarkID(Int(owner))
        let first = try #require((0..<boundary).last { index.owners[$0] != owner }) + 1
        // View j of the first copy lies before the split, view j of the second copy after it.
        let j = boundary - 1 - first < 31 ? boundary - 1 - first : boundary - first - 31
        try #require(first + j < boundary && first + 31 + j >= boundary, "views \(first + j) and \(first + 31 + j) around \(boundary)")
        let entry = try #require(entries.first { $0.landmarkID == straddling })
        var queries = VisualIndexScanEquivalenceTests.queries(near: entries, count: 6, seed: 21)
        var exact = SyntheticCatalog.fingerprint(regions: FingerprintViewLayout.query.viewRegions, using: &generator)
        exact.views[0] = entry.fingerprints[0].views[j]
        exact.views[0].region = .full
        queries.append(exact)
        for (scoring, minimumScore) in [(SimilarityScoring.default, SimilarityScoring.defaultNoMatchThreshold), (.default, 0)] {
            for (k, query) in queries.enumerated() {
                for isa in InstructionSet.allCases where isa.isSupported {
                    let one = try index.search(query, scoring: scoring, minimumScore: minimumScore, using: isa)
                    for threads in [2, 5] {
                        let split = try index.search(query, scoring: scoring, minimumScore: minimumScore, threads: threads, using: isa)
                        #expect(split == one, "query \(k) on \(isa), \(threads) threads, minimum \(minimumScore)")
                    }
                }
            }
        }
        let found = try index.search(exact, minimumScore: SimilarityScoring.defaultNoMatchThreshold, threads: 2)
        let best = try #require(found.matches.first)
        #expect(best.landmarkID == straddling && best.score == 1 && best.catalogRegion == entry.fingerprints[0].views[j].region, "\(best)")

        // A deadline already past: nothing scanned in any part, the outcome partial and empty.
        let late = try index.search(exact, minimumScore: 0, deadline: .now - .seconds(1), threads: 2)
        #expect(late.isPartial && late.matches.isEmpty && late.comparedPairs == 0)
    }
}
