import CSIMDKernels

/// Hamming distances over 128-bit codes stored as word pairs (low, high), the first
/// stage's codes: a SIMD kernel chosen at run time (AVX-512 VPOPCNTDQ, scalar POPCNT,
/// portable), identical answers on every path.
public enum CodeScan128 {
    /// Writes `out[k]` = the distance (0…128) from (`low`, `high`) to code k, whose words are
    /// `codes[2k]`, `codes[2k + 1]`, and increases `histogram[d]` by the number of codes at
    /// distance d: what choosing the nearest lists of a query code needs.
    ///
    /// - Precondition: `codes.count` is even, `out.count >= codes.count / 2` and
    ///   `histogram.count == 129`.
    /// - Complexity: O(codes).
    public static func distances(low: UInt64, high: UInt64, to codes: UnsafeBufferPointer<UInt64>,
                                 into out: UnsafeMutableBufferPointer<UInt8>, histogram: UnsafeMutableBufferPointer<UInt32>,
                                 using isa: InstructionSet = .best) {
        precondition(codes.count % 2 == 0 && out.count >= codes.count / 2 && histogram.count == 129,
                     "128-bit codes take 2 words; output too short, or the histogram is not 0…128")
        guard let c = codes.baseAddress, let o = out.baseAddress, let h = histogram.baseAddress, !codes.isEmpty else { return }
        glimpse_code128_distance_histogram(isa.code, low, high, c, codes.count / 2, o, h)
    }

    /// Writes the positions k of `distances` with `distances[k] <= limit` to `positions`,
    /// ascending, and returns how many: the lists within a cut distance of a query code.
    ///
    /// - Precondition: `positions.count >= distances.count` and `distances.count < 2^32`.
    /// - Complexity: O(distances) (64 compared per instruction with AVX-512).
    public static func positions(in distances: UnsafeBufferPointer<UInt8>, atMost limit: UInt8,
                                 into positions: UnsafeMutableBufferPointer<UInt32>, using isa: InstructionSet = .best) -> Int {
        precondition(positions.count >= distances.count && distances.count < 1 << 32, "positions too short for every distance")
        guard let d = distances.baseAddress, let p = positions.baseAddress, !distances.isEmpty else { return 0 }
        return glimpse_bytes_at_most(isa.code, d, distances.count, limit, p)
    }

    /// Scans one inverted list into each owner's nearest distance: for every code k within
    /// `radius` (0…128) of (`low`, `high`), `nearest[references[k] & ownerMask]` becomes the
    /// smaller of itself and that distance (an owner outside the table is skipped). A table
    /// entry above `radius` means no code of that owner was within it yet. `counts[d]` is
    /// kept equal to the number of table entries at distance d (0…radius), so the caller
    /// finds a cut without reading the table. Returns how many codes were within the radius.
    ///
    /// - Precondition: `codes.count == 2 × references.count`, `counts.count == 129`, and
    ///   `counts` counts `nearest` as described before the call.
    /// - Complexity: O(codes), one table access per code within the radius.
    public static func nearest(low: UInt64, high: UInt64, radius: Int, codes: UnsafeBufferPointer<UInt64>,
                               references: UnsafeBufferPointer<UInt32>, ownerMask: UInt32,
                               into nearest: UnsafeMutableBufferPointer<UInt8>, counts: UnsafeMutableBufferPointer<UInt32>,
                               using isa: InstructionSet = .best) -> Int {
        precondition(codes.count == 2 * references.count && counts.count == 129, "code and reference counts disagree, or counts is not 0…128")
        guard let c = codes.baseAddress, let r = references.baseAddress, let n = nearest.baseAddress, let k = counts.baseAddress,
              !references.isEmpty else { return 0 }
        return glimpse_code128_nearest(isa.code, low, high, c, r, references.count, ownerMask, Int32(radius), n, nearest.count, k)
    }

    /// ``nearest(low:high:radius:codes:references:ownerMask:into:counts:using:)`` for several
    /// query codes at once (`queries`: two words each), the list read once: each code counts
    /// at its nearest distance to any of them. The table and counts end as after one call
    /// per query code; returns how many codes were within the radius of at least one.
    ///
    /// - Precondition: as the one-query call, and `queries.count` is even.
    /// - Complexity: O(codes × query codes) popcounts, one read of the codes, one table
    ///   access per code within the radius.
    public static func nearest(queries: UnsafeBufferPointer<UInt64>, radius: Int, codes: UnsafeBufferPointer<UInt64>,
                               references: UnsafeBufferPointer<UInt32>, ownerMask: UInt32,
                               into nearest: UnsafeMutableBufferPointer<UInt8>, counts: UnsafeMutableBufferPointer<UInt32>,
                               using isa: InstructionSet = .best) -> Int {
        precondition(codes.count == 2 * references.count && counts.count == 129 && queries.count % 2 == 0,
                     "code and reference counts disagree, counts is not 0…128, or a query code lacks a word")
        guard let q = queries.baseAddress, let c = codes.baseAddress, let r = references.baseAddress, let n = nearest.baseAddress,
              let k = counts.baseAddress, !references.isEmpty, !queries.isEmpty else { return 0 }
        return glimpse_code128_nearest_many(isa.code, q, queries.count / 2, c, r, references.count, ownerMask, Int32(radius), n, nearest.count, k)
    }
}
