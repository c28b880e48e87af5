/// A deterministic random number generator, SplitMix64 (Steele, Lea and Flood 2014): the
/// same seed always gives the same sequence, on every machine and run. The one seeded
/// generator of the project: synthetic catalogs (``SyntheticCatalog``), the evaluation's
/// transformations, and reproducible tests and benchmarks. Not for anything secret.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed; every seed, including 0, is fine.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    /// - Complexity: O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed Double in `range`, from 53 random bits.
    /// - Complexity: O(1).
    public mutating func unit(in range: ClosedRange<Double>) -> Double {
        let u = Double(next() >> 11) / Double(1 << 53)
        return range.lowerBound + u * (range.upperBound - range.lowerBound)
    }

    /// A fair coin flip.
    /// - Complexity: O(1).
    public mutating func coin() -> Bool { next() & 1 == 1 }

    /// A seed derived from a string and a salt with FNV-1a: stable across runs and
    /// processes (unlike `Hasher`).
    /// - Complexity: O(n), n the length of `text` in UTF-8 bytes.
    public static func seed(for text: String, salt: UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
