import InstructionSetTesting
import Testing
@testable import Fingerprints

/// The first stage's 128-bit code kernels (distances with their histogram, the positions
/// under a cut, each owner's nearest code) give the scalar definition's answers on every
/// instruction set this CPU has (each forced in turn), at every length (vector bodies and
/// tails) and radius (0, typical, 128).
@Suite struct CodeScan128Tests {
    static func words(_ count: Int, seed: UInt64) -> [UInt64] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    @Test(.comparingEveryInstructionSet) func nearestCodesWithinTheRadiusMatchTheScalarDefinitionOnEveryInstructionSet() {
        let supported = InstructionSet.allCases.filter(\.isSupported)
        #expect(supported.contains(.portable))
        let query = Self.words(2, seed: 7)
        for count in [0, 1, 7, 8, 9, 63, 1_000] {
            var codes = Self.words(2 * count, seed: UInt64(count) + 1)
            // A few codes near the query, so small radii have hits too.
            for k in stride(from: 0, to: count, by: 5) { codes[2 * k] = query[0] ^ (1 << UInt64(k % 64)); codes[2 * k + 1] = query[1] }
            let expected = (0..<count).map { (query[0] ^ codes[2 * $0]).nonzeroBitCount + (query[1] ^ codes[2 * $0 + 1]).nonzeroBitCount }
            for isa in supported {
                for radius in [0, 1, 60, 128] {
                    // Owners: k % 8 (several codes each), the full-frame bit masked off; owner
                    // 7 is outside the 7-entry table and skipped.
                    let references = (0..<count).map { UInt32($0 % 8) | (($0 % 3 == 0) ? 1 << 31 : 0) }
                    var want = [UInt8](repeating: UInt8(radius + 1), count: 7), within = 0
                    for k in 0..<count where expected[k] <= radius {
                        within += 1
                        let owner = k % 8
                        if owner < 7 { want[owner] = min(want[owner], UInt8(expected[k])) }
                    }
                    var table = [UInt8](repeating: UInt8(radius + 1), count: 7), counts = [UInt32](repeating: 0, count: 129)
                    let found = codes.withUnsafeBufferPointer { c in
                        references.withUnsafeBufferPointer { r in
                            table.withUnsafeMutableBufferPointer { t in
                                counts.withUnsafeMutableBufferPointer { k in
                                    CodeScan128.nearest(low: query[0], high: query[1], radius: radius, codes: c, references: r,
                                                        ownerMask: ~(1 << 31), into: t, counts: k, using: isa)
                                }
                            }
                        }
                    }
                    #expect(table == want, "nearest, \(isa), radius \(radius), \(count) codes")
                    #expect(counts == (0...128).map { d in UInt32(want.filter { Int($0) == d && d <= radius }.count) })
                    #expect(found == within)
                }
            }
        }
    }

    @Test(.comparingEveryInstructionSet) func manyQueryCodesAtOnceLeaveTheTableOneCallPerCodeLeaves() {
        let supported = InstructionSet.allCases.filter(\.isSupported)
        for queryCount in [1, 2, 5, 17] {
            let queries = Self.words(2 * queryCount, seed: UInt64(100 + queryCount))
            for count in [0, 1, 7, 8, 9, 63, 1_000] {
                var codes = Self.words(2 * count, seed: UInt64(count) + 11)
                // Codes near one query or another, so every radius has hits.
                for k in stride(from: 0, to: count, by: 3) {
                    let q = k % queryCount
                    codes[2 * k] = queries[2 * q] ^ (1 << UInt64(k % 64)) ^ (1 << UInt64((k / 3) % 64))
                    codes[2 * k + 1] = queries[2 * q + 1]
                }
                let references = (0..<count).map { UInt32($0 % 11) | (($0 % 4 == 0) ? 1 << 31 : 0) }
                for radius in [0, 2, 60, 128] {
                    // The reference: one call per query code, portable.
                    var want = [UInt8](repeating: UInt8(radius + 1), count: 10), wantCounts = [UInt32](repeating: 0, count: 129)
                    for q in 0..<queryCount {
                        _ = codes.withUnsafeBufferPointer { c in
                            references.withUnsafeBufferPointer { r in
                                want.withUnsafeMutableBufferPointer { t in
                                    wantCounts.withUnsafeMutableBufferPointer { k in
                                        CodeScan128.nearest(low: queries[2 * q], high: queries[2 * q + 1], radius: radius, codes: c, references: r,
                                                            ownerMask: ~(1 << 31), into: t, counts: k, using: .portable)
                                    }
                                }
                            }
                        }
                    }
                    let within = (0..<count).filter { k in
                        (0..<queryCount).contains { q in
                            (queries[2 * q] ^ codes[2 * k]).nonzeroBitCount + (queries[2 * q + 1] ^ codes[2 * k + 1]).nonzeroBitCount <= radius
                        }
                    }.count
                    for isa in supported {
                        var table = [UInt8](repeating: UInt8(radius + 1), count: 10), counts = [UInt32](repeating: 0, count: 129)
                        let found = queries.withUnsafeBufferPointer { qs in
                            codes.withUnsafeBufferPointer { c in
                                references.withUnsafeBufferPointer { r in
                                    table.withUnsafeMutableBufferPointer { t in
                                        counts.withUnsafeMutableBufferPointer { k in
                                            CodeScan128.nearest(queries: qs, radius: radius, codes: c, references: r,
                                                                ownerMask: ~(1 << 31), into: t, counts: k, using: isa)
                                        }
                                    }
                                }
                            }
                        }
                        #expect(table == want, "\(isa), \(queryCount) query codes, radius \(radius), \(count) codes")
                        #expect(counts == wantCounts)
                        #expect(found == within)
                    }
                }
            }
        }
    }

    @Test(.comparingEveryInstructionSet) func distanceHistogramsAndCutPositionsMatchTheScalarDefinitionOnEveryInstructionSet() {
        let supported = InstructionSet.allCases.filter(\.isSupported)
        let query = Self.words(2, seed: 11)
        for count in [0, 1, 3, 4, 5, 31, 32, 33, 63, 64, 65, 127, 1_000, 4_099] {
            var codes = Self.words(2 * count, seed: UInt64(count) + 3)
            // Some codes equal to the query (distance 0) and some at every small distance.
            for k in stride(from: 0, to: count, by: 7) { codes[2 * k] = query[0] ^ ((1 << UInt64(k % 9)) - 1); codes[2 * k + 1] = query[1] }
            let expected = (0..<count).map { UInt8((query[0] ^ codes[2 * $0]).nonzeroBitCount + (query[1] ^ codes[2 * $0 + 1]).nonzeroBitCount) }
            var wantHistogram = [UInt32](repeating: 1, count: 129)  // added to, not overwritten
            for d in expected { wantHistogram[Int(d)] += 1 }
            for isa in supported {
                var out = [UInt8](repeating: 0xFF, count: count), histogram = [UInt32](repeating: 1, count: 129)
                codes.withUnsafeBufferPointer { c in
                    out.withUnsafeMutableBufferPointer { o in
                        histogram.withUnsafeMutableBufferPointer { CodeScan128.distances(low: query[0], high: query[1], to: c, into: o, histogram: $0, using: isa) }
                    }
                }
                #expect(out == expected, "distances, \(isa), \(count) codes")
                #expect(histogram == wantHistogram, "histogram, \(isa), \(count) codes")
                for limit: UInt8 in [0, 3, 60, 64, 70, 128, 255] {
                    var positions = [UInt32](repeating: .max, count: count)
                    let found = expected.withUnsafeBufferPointer { d in
                        positions.withUnsafeMutableBufferPointer { CodeScan128.positions(in: d, atMost: limit, into: $0, using: isa) }
                    }
                    let want = expected.indices.filter { expected[$0] <= limit }.map(UInt32.init)
                    #expect(Array(positions[..<found]) == want, "positions at most \(limit), \(isa), \(count) values")
                }
            }
        }
    }
}
