import CSIMDKernels

/// Hamming distances over 128-bit codes stored as word pairs (low, high), the first
/// stage's codes: a SIMD kernel chosen at run time (AVX-512 VPOPCNTDQ, scalar POPCNT,
/// portable), identical answers on every path.
public enum CodeScan128 {
    /// Writes `out[k]` = the distance (0…128) from (`low`, `high`) to code k, whose words are
    /// `codes[2k]`, `codes[2k + 1]`.
    ///
    /// - Precondition: `codes.count` is even and `out.count >= codes.count / 2`.
    /// - Complexity: O(codes).
    public static func distances(low: UInt64, high: UInt64, to codes: UnsafeBufferPointer<UInt64>,
                                 into out: UnsafeMutableBufferPointer<UInt8>, using isa: InstructionSet = .best) {
        precondition(codes.count % 2 == 0 && out.count >= codes.count / 2, "128-bit codes take 2 words; output too short")
        guard let c = codes.baseAddress, let o = out.baseAddress, !codes.isEmpty else { return }
        glimpse_code128_distances(isa.code, low, high, c, codes.count / 2, o)
    }

    /// The codes within `radius` (0…128) of (`low`, `high`) whose reference has every bit of
    /// `required`, in code order: their references into `hits` and distances into
    /// `distances`. Returns how many.
    ///
    /// - Precondition: `codes.count == 2 × references.count`, and `hits`, `distances` hold
    ///   `references.count` entries.
    /// - Complexity: O(codes).
    public static func within(low: UInt64, high: UInt64, radius: Int, codes: UnsafeBufferPointer<UInt64>,
                              references: UnsafeBufferPointer<UInt32>, required: UInt32,
                              hits: UnsafeMutableBufferPointer<UInt32>, distances: UnsafeMutableBufferPointer<UInt8>,
                              using isa: InstructionSet = .best) -> Int {
        precondition(codes.count == 2 * references.count && hits.count >= references.count && distances.count >= references.count,
                     "code, reference and output counts disagree")
        guard let c = codes.baseAddress, let r = references.baseAddress, let h = hits.baseAddress, let d = distances.baseAddress,
              !references.isEmpty else { return 0 }
        return glimpse_code128_within(isa.code, low, high, c, r, references.count, required, Int32(radius), h, d)
    }
}
