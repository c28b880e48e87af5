import CSIMDKernels

/// The DCT hashes (PDQ's 256 bits, pHash's 64) of one view in each of the eight
/// orientations, derived from the view's own coefficients with as little work as possible,
/// and bit for bit what ``Dihedral/transformDCT(_:side:)`` followed by the median threshold
/// gives.
///
/// Why it is cheaper: every orientation's coefficients are the original ones with the signs
/// of some frequencies flipped (one of four patterns: none, odd vertical, odd horizontal, odd
/// in exactly one direction), transposed or not. A transpose moves coefficients without
/// changing their multiset, so the median, and every bit, moves with them: the hash of a
/// transposed orientation is the bit-matrix transpose of the hash of the orientation with
/// the same sign pattern. So the eight orientations cost four medians instead of eight,
/// and no array is built per orientation. O(side² log side² × 4) per view.
struct OrientedDCTHashes {
    /// Which coefficients an orientation negates (in the original's row/column indexing,
    /// index k meaning frequency k + 1).
    private enum SignPattern: Int, CaseIterable {
        case none, oddVertical, oddHorizontal, oddInOneDirection
    }

    private static func signPattern(of transform: Dihedral) -> SignPattern {
        switch transform {
        case .original, .flipPlus1: .none
        case .flipX, .rotate270: .oddVertical
        case .flipY, .rotate90: .oddHorizontal
        case .rotate180, .flipMinus1: .oddInOneDirection
        }
    }

    /// Bits of the PDQ hash per sign pattern, row-major (bit 16r + c), computed on demand.
    private var pdqBits: [PDQHash?] = [nil, nil, nil, nil]
    /// Bits of the pHash per sign pattern (bit 8r + c).
    private var pHashBits: [UInt64?] = [nil, nil, nil, nil]
    private let pdqCoefficients: [Float]
    private let pHashCoefficients: [Float]

    /// The view's 16×16 PDQ coefficients and 8×8 pHash coefficients (row = vertical
    /// frequency), and the two upright hashes already computed from them.
    init(pdq: [Float], pdqHash: PDQHash, pHash: [Float], pHashValue: UInt64) {
        precondition(pdq.count == 256 && pHash.count == 64, "PDQ has 16x16 coefficients, pHash 8x8")
        pdqCoefficients = pdq
        pHashCoefficients = pHash
        pdqBits[0] = pdqHash
        pHashBits[0] = pHashValue
    }

    /// PDQ hash of the view in orientation `transform`.
    mutating func pdq(for transform: Dihedral) -> PDQHash {
        let p = Self.signPattern(of: transform).rawValue
        let bits: PDQHash
        if let known = pdqBits[p] {
            bits = known
        } else {
            let words = Self.thresholdBits(pdqCoefficients, side: 16, pattern: SignPattern(rawValue: p)!)
            bits = PDQHash(words: SIMD4(words[0], words[1], words[2], words[3]))
            pdqBits[p] = bits
        }
        guard transform.swapsAxes else { return bits }
        return PDQHash(words: Self.transpose16(bits.words))
    }

    /// pHash of the view in orientation `transform`.
    mutating func pHash(for transform: Dihedral) -> UInt64 {
        let p = Self.signPattern(of: transform).rawValue
        let bits: UInt64
        if let known = pHashBits[p] {
            bits = known
        } else {
            bits = Self.thresholdBits(pHashCoefficients, side: 8, pattern: SignPattern(rawValue: p)!)[0]
            pHashBits[p] = bits
        }
        return transform.swapsAxes ? Self.transpose8(bits) : bits
    }

    /// Bit `side·r + c` set where the sign-flipped coefficient (r, c) exceeds the median of
    /// all of them (the (n/2)th smallest, as ``PDQHasher/bits(of:using:)`` and
    /// ``PerceptualHashes/dctHash(coefficients:using:)`` take it).
    private static func thresholdBits(_ c: [Float], side n: Int, pattern: SignPattern) -> [UInt64] {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: n * n) { flipped in
            for i in 0..<n {
                for j in 0..<n {
                    let oddV = i & 1 == 0, oddH = j & 1 == 0   // index k is frequency k + 1
                    let negate = switch pattern {
                    case .none: false
                    case .oddVertical: oddV
                    case .oddHorizontal: oddH
                    case .oddInOneDirection: oddV != oddH
                    }
                    let a = c[i * n + j]
                    flipped[i * n + j] = negate ? -a : a
                }
            }
            var words = [UInt64](repeating: 0, count: (n * n + 63) / 64)
            glimpse_median_bits_f32(InstructionSet.best.code, flipped.baseAddress, Int32(n * n), &words)
            return words
        }
    }

    /// Transpose of a 16×16 bit matrix stored as bit 16r + c of four 64-bit words.
    /// Rows of 16 bits (row r = bits 16r…16r+15, column c = bit c of the row); block swaps
    /// of 8, 4, 2 and 1 (as ``transpose8(_:)``, one row pair at a time).
    private static func transpose16(_ w: SIMD4<UInt64>) -> SIMD4<UInt64> {
        var a = [UInt16](repeating: 0, count: 16)
        for r in 0..<16 { a[r] = UInt16(truncatingIfNeeded: w[r >> 2] >> UInt64(16 * (r & 3))) }
        for (j, mask) in [(8, UInt16(0x00FF)), (4, 0x0F0F), (2, 0x3333), (1, 0x5555)] {
            for k in 0..<16 where k & j == 0 {
                let t = ((a[k] >> UInt16(j)) ^ a[k + j]) & mask
                a[k] ^= t << UInt16(j)
                a[k + j] ^= t
            }
        }
        var out = SIMD4<UInt64>.zero
        for r in 0..<16 { out[r >> 2] |= UInt64(a[r]) << UInt64(16 * (r & 3)) }
        return out
    }

    /// Transpose of an 8×8 bit matrix stored as bit 8r + c (the classic three-step swap).
    private static func transpose8(_ x: UInt64) -> UInt64 {
        var x = x
        var t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA
        x = x ^ t ^ (t << 7)
        t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC
        x = x ^ t ^ (t << 14)
        t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0
        x = x ^ t ^ (t << 28)
        return x
    }
}
