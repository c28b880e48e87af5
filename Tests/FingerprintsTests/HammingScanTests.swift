import SyntheticData
import Testing
import Fingerprints

@Suite struct HammingScanTests {
    static func randomCodes(_ n: Int, seed: UInt64) -> [UInt64] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { _ in rng.next() }
    }

    @Test(arguments: [0, 1, 7, 8, 9, 31, 32, 33, 1000, 4097])
    func distances64MatchScalarLoopOnEveryInstructionSet(count: Int) {
        let codes = Self.randomCodes(count, seed: UInt64(count) + 1)
        let query: UInt64 = 0xDEAD_BEEF_0123_4567
        let expected = codes.map { UInt16(($0 ^ query).nonzeroBitCount) }
        for isa in InstructionSet.allCases {
            #expect(HammingScan.distances(from: query, to: codes, using: isa) == expected, "\(isa)")
        }
    }

    @Test(arguments: [0, 1, 3, 7, 8, 9, 17, 1000, 4099])
    func distances256MatchScalarLoopOnEveryInstructionSet(count: Int) {
        let words = Self.randomCodes(4 * count, seed: UInt64(count) + 99)
        let query = PDQHash(words: SIMD4(0x0123_4567_89AB_CDEF, ~0, 0, 0x5555_5555_AAAA_AAAA))
        let expected = (0..<count).map { i in
            UInt16(PDQHash(words: SIMD4(words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3])).distance(to: query))
        }
        for isa in InstructionSet.allCases {
            #expect(HammingScan.distances(from: query, to: words, using: isa) == expected, "\(isa)")
        }
    }

    @Test func extremeDistancesAreExact() {
        let query = PDQHash(words: SIMD4(repeating: 0))
        let words: [UInt64] = [0, 0, 0, 0, ~0, ~0, ~0, ~0]
        for isa in InstructionSet.allCases {
            #expect(HammingScan.distances(from: query, to: words, using: isa) == [0, 256])
            #expect(HammingScan.distances(from: 0, to: [~0, 0], using: isa) == [64, 0])
        }
    }

    @Test func thresholdScanReturnsAllCodesWithinDistanceClosestFirst() {
        var codes = Self.randomCodes(10_000, seed: 5)
        let query = codes[1234]
        codes[9000] = query ^ 0b101      // distance 2
        codes[17] = query ^ 0b1          // distance 1
        codes[42] = query ^ 0b1000       // distance 1, higher index than 17
        let hits = codes.withUnsafeBufferPointer { HammingScan.matches(of: query, in: $0, maxDistance: 2) }
        #expect(hits == [ScanMatch(index: 1234, distance: 0), ScanMatch(index: 17, distance: 1),
                         ScanMatch(index: 42, distance: 1), ScanMatch(index: 9000, distance: 2)])
    }

    @Test(arguments: [1, 5, 50, 20_000])
    func topKEqualsSortedBruteForceWithTiesByIndex(k: Int) {
        // Few distinct codes, so that many distances tie.
        var rng = SeededGenerator(seed: 77)
        let palette = Self.randomCodes(16, seed: 3)
        let codes = (0..<15_000).map { _ in palette[Int(rng.next() % 16)] }
        let query = palette[0] ^ 0xFF
        let brute = codes.enumerated().map { ScanMatch(index: $0.offset, distance: ($0.element ^ query).nonzeroBitCount) }.sorted()
        for isa in InstructionSet.allCases {
            let top = codes.withUnsafeBufferPointer { HammingScan.nearest(k, to: query, in: $0, using: isa) }
            #expect(top == Array(brute.prefix(k)), "\(isa) k=\(k)")
        }
    }

    /// The in-kernel radius test returns exactly the codes a scalar loop finds, in index order,
    /// on every path: many hits (more than one candidate buffer), block tails, radius 0 and
    /// a radius that admits everything.
    @Test(arguments: [0, 28, 30, 64])
    func filteredScansEqualScalarLoopsOnEveryInstructionSet(radius: Int) {
        let codes = Self.randomCodes(5_003, seed: 41)
        let query = codes[77]
        let expected64 = codes.enumerated().filter { ($0.element ^ query).nonzeroBitCount <= radius }
            .map { ScanMatch(index: $0.offset, distance: ($0.element ^ query).nonzeroBitCount) }
        let pdqQuery = PDQHash(words: SIMD4(codes[400], codes[401], codes[402], codes[403]))
        let radius256 = radius * 4 - radius / 2
        let expected256 = (0..<(codes.count / 4)).compactMap { i -> ScanMatch? in
            let d = PDQHash(words: SIMD4(codes[4 * i], codes[4 * i + 1], codes[4 * i + 2], codes[4 * i + 3])).distance(to: pdqQuery)
            return d <= radius256 ? ScanMatch(index: i, distance: d) : nil
        }
        for isa in InstructionSet.allCases {
            var seen64: [ScanMatch] = [], seen256: [ScanMatch] = []
            codes.withUnsafeBufferPointer { c in
                HammingScan.forEachMatch(of: query, in: c, maxDistance: radius, using: isa) { seen64.append(ScanMatch(index: $0, distance: $1)) }
                HammingScan.forEachMatch(of: pdqQuery, in: UnsafeBufferPointer(rebasing: c[0..<(c.count / 4 * 4)]), maxDistance: radius256,
                                         using: isa) { seen256.append(ScanMatch(index: $0, distance: $1)) }
            }
            #expect(seen64 == expected64, "\(isa) radius \(radius)")
            #expect(seen256 == expected256, "\(isa) radius \(radius256)")
        }
        #expect(expected64.count > 256 || radius < 64)
    }

    @Test func topK256RespectsMaxDistance() {
        let words = Self.randomCodes(4 * 3000, seed: 8)
        let query = PDQHash(words: SIMD4(words[40], words[41], words[42], words[43]))
        let top = words.withUnsafeBufferPointer { HammingScan.nearest(10, to: query, in: $0, maxDistance: 90) }
        #expect(top.first == ScanMatch(index: 10, distance: 0))
        #expect(top.allSatisfy { $0.distance <= 90 })
        let within = words.withUnsafeBufferPointer { HammingScan.matches(of: query, in: $0, maxDistance: 90) }
        #expect(Array(within.prefix(10)) == top)
    }

    @Test func histogramScanMatchesPairwiseDistanceOnEveryInstructionSet() {
        var rng = SeededGenerator(seed: 21)
        let histograms = (0..<1001).map { _ in ColorHistogram(packed: SIMD64<UInt8>((0..<64).map { _ in UInt8(truncatingIfNeeded: rng.next()) })) }
        var rows: [UInt8] = []
        histograms.forEach { $0.appendBins(to: &rows) }
        let query = histograms[500]
        let expected = histograms.map { h in UInt16(zip(h.bins, query.bins).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) }
        for isa in InstructionSet.allCases {
            var out = [UInt16](repeating: 0, count: histograms.count)
            rows.withUnsafeBufferPointer { r in out.withUnsafeMutableBufferPointer { HistogramScan.distances(from: query, to: r, into: $0, using: isa) } }
            #expect(out == expected, "\(isa)")
            #expect(histograms.map { query.distance(to: $0, using: isa) } == expected.map(Int.init), "\(isa)")
        }
        let top = rows.withUnsafeBufferPointer { HistogramScan.nearest(3, to: query, in: $0) }
        #expect(top.first == ScanMatch(index: 500, distance: 0))
    }

    @Test func bestInstructionSetIsReportedAndSupported() {
        #expect(InstructionSet.best.isSupported)
        #expect(InstructionSet.portable.effective == .portable)
        #expect(InstructionSet.avx512.effective == InstructionSet.best)
    }
}
