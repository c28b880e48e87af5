extension PerceptualHashes {
    /// The aHash of the left–right mirrored region: bit `8r + c` moves to `8r + 7 − c`. O(1).
    public static func mirroredAverageHash(_ hash: UInt64) -> UInt64 {
        var out: UInt64 = 0
        for r in 0..<8 {
            for c in 0..<8 where hash & (1 << UInt64(8 * r + c)) != 0 { out |= 1 << UInt64(8 * r + 7 - c) }
        }
        return out
    }

    /// The dHash of the left–right mirrored region. Horizontal bits: the mirrored row reads
    /// the gradients backwards, so bit `4r + c` is the complement of bit `4r + 3 − c`
    /// (exact except where two averaged cells are equal, then both are 0). Vertical bits:
    /// bit `32 + 8r + c` moves to `32 + 8r + 7 − c`. O(1).
    public static func mirroredDifferenceHash(_ hash: UInt64) -> UInt64 {
        var out: UInt64 = 0
        for r in 0..<8 {
            for c in 0..<4 where hash & (1 << UInt64(4 * r + 3 - c)) == 0 { out |= 1 << UInt64(4 * r + c) }
        }
        for r in 0..<4 {
            for c in 0..<8 where hash & (1 << UInt64(32 + 8 * r + c)) != 0 { out |= 1 << UInt64(32 + 8 * r + 7 - c) }
        }
        return out
    }

    /// The pHash DCT coefficients (``dctCoefficients(block32x32:using:)``, row = vertical
    /// frequency 1…8, column = horizontal frequency 1…8) of the left–right mirrored block:
    /// a mirror negates the odd horizontal frequencies, i.e. the even columns. O(64).
    public static func mirroredDCT(_ coefficients: [Float]) -> [Float] {
        precondition(coefficients.count == 64, "pHash has 8x8 coefficients")
        return coefficients.indices.map { k in (k % 8) & 1 == 0 ? -coefficients[k] : coefficients[k] }
    }
}
