import SyntheticData
import Testing
import Fingerprints

@Suite struct ColorHistogramTests {
    /// The documented normalisation, in integers: bin = ⌊(510·count + total) / (2·total)⌋.
    static func integerBins(_ counts: [UInt32]) -> [UInt8] {
        let total = counts.reduce(UInt64(0)) { $0 + UInt64($1) }
        guard total > 0 else { return [UInt8](repeating: 0, count: ColorHistogram.binCount) }
        return counts.map { UInt8((UInt64($0) * 510 + total) / (2 * total)) }
    }

    /// The normaliser divides in Double; its bins equal the integer formula's on counts that
    /// put quotients right at and just below every half (the rounding edges), on a single
    /// full bin, on all-zero counts, on counts up to UInt32.max in every bin, and on random
    /// counts of every magnitude.
    @Test func countsNormaliseExactlyAsTheIntegerFormula() {
        var cases: [[UInt32]] = [[UInt32](repeating: 0, count: 64), [UInt32](repeating: .max, count: 64)]
        var single = [UInt32](repeating: 0, count: 64)
        single[17] = 76_800
        cases.append(single)
        // total = 510: bin k gets k counts, so 510·k + 510 over 1020 sits on exact halves.
        for total in [510, 1020, 76_800, 262_144] {
            for k in 0..<64 {
                var c = [UInt32](repeating: 0, count: 64)
                c[k] = UInt32(total / 2)
                c[(k + 1) % 64] = UInt32(total - total / 2)
                cases.append(c)
                var near = c
                near[k] = near[k] &- 1
                near[(k + 2) % 64] = 1
                cases.append(near)
            }
        }
        var rng = SeededGenerator(seed: 15)
        for magnitude in [UInt64(8), 1 << 12, 1 << 18, 1 << 24, 1 << 32] {
            for _ in 0..<2_000 {
                cases.append((0..<64).map { _ in UInt32(truncatingIfNeeded: rng.next() % magnitude) })
            }
        }
        let mismatches = cases.filter { ColorHistogram(counts: $0).bins != Self.integerBins($0) }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count), first \(mismatches.first ?? [])")
    }
}
