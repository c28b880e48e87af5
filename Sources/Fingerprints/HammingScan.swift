import CSIMDKernels

/// One hit of a ``HammingScan`` (or ``HistogramScan``): the position of a code in the
/// scanned buffer and its distance to the query.
public struct ScanMatch: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Index of the code in the scanned buffer (code `index`, not word `index`).
    public var index: Int
    /// Distance to the query (Hamming bits, or histogram L1).
    public var distance: Int

    /// Creates a match.
    public init(index: Int, distance: Int) {
        self.index = index
        self.distance = distance
    }

    /// Closer first; ties broken by the lower index, so results are deterministic.
    public static func < (a: ScanMatch, b: ScanMatch) -> Bool {
        (a.distance, a.index) < (b.distance, b.index)
    }

    /// One line for people, naming what and why.
    public var description: String { "#\(index)@\(distance)" }
}

/// Bulk Hamming-distance scans over contiguous, struct-of-arrays code buffers: the
/// index's inner loop.
///
/// Layouts:
/// - 64-bit codes (aHash, dHash, pHash): one `UInt64` per code.
/// - 256-bit codes (PDQ): four `UInt64` per code, in ``PDQHash/words`` order
///   (code `i` is words `4i ..< 4i+4`). ``PDQHash/appendWords(to:)`` builds such a buffer.
///
/// Every function runs the AVX-512 VPOPCNTDQ kernel when available, else AVX2+POPCNT,
/// else a portable bit-trick popcount; `using:` forces a path (answers are identical).
/// Cost: O(count); about 8 (64-bit) or 32 (256-bit) bytes read per code. The threshold and
/// top-k scans compare in the kernel and write nothing per rejected code, so they run at
/// the speed of the popcount itself.
public enum HammingScan {
    /// Codes scored per kernel call inside the threshold and top-k scans.
    static let blockSize = 4096

    /// Writes `out[i] = popcount(query ^ codes[i])` for every code.
    ///
    /// - Precondition: `out.count >= codes.count`.
    public static func distances(from query: UInt64, to codes: UnsafeBufferPointer<UInt64>,
                                 into out: UnsafeMutableBufferPointer<UInt16>, using isa: InstructionSet = .best) {
        precondition(out.count >= codes.count, "output holds \(out.count) distances, need \(codes.count)")
        guard let c = codes.baseAddress, let o = out.baseAddress, !codes.isEmpty else { return }
        glimpse_hamming64_distances(isa.code, query, c, codes.count, o)
    }

    /// Writes the distance from `query` to each 256-bit code of `codes` (4 words per code).
    ///
    /// - Precondition: `codes.count` is a multiple of 4 and `out.count >= codes.count / 4`.
    public static func distances(from query: PDQHash, to codes: UnsafeBufferPointer<UInt64>,
                                 into out: UnsafeMutableBufferPointer<UInt16>, using isa: InstructionSet = .best) {
        precondition(codes.count % 4 == 0, "256-bit codes take 4 words each; got \(codes.count) words")
        let n = codes.count / 4
        precondition(out.count >= n, "output holds \(out.count) distances, need \(n)")
        guard let c = codes.baseAddress, let o = out.baseAddress, n > 0 else { return }
        withUnsafeBytes(of: query.words) { q in
            glimpse_hamming256_distances(isa.code, q.baseAddress?.assumingMemoryBound(to: UInt64.self), c, n, o)
        }
    }

    /// Distances from `query` to every 64-bit code, as a new array.
    public static func distances(from query: UInt64, to codes: [UInt64], using isa: InstructionSet = .best) -> [UInt16] {
        [UInt16](unsafeUninitializedCapacity: codes.count) { out, n in
            codes.withUnsafeBufferPointer { distances(from: query, to: $0, into: out, using: isa) }
            n = codes.count
        }
    }

    /// Distances from `query` to every 256-bit code of `codes` (4 words per code), as a new array.
    public static func distances(from query: PDQHash, to codes: [UInt64], using isa: InstructionSet = .best) -> [UInt16] {
        [UInt16](unsafeUninitializedCapacity: codes.count / 4) { out, n in
            codes.withUnsafeBufferPointer { distances(from: query, to: $0, into: out, using: isa) }
            n = codes.count / 4
        }
    }

    /// Calls `body(index, distance)` for every 64-bit code within `maxDistance` bits of
    /// `query`, in index order. The comparison with `maxDistance` runs inside the SIMD kernel
    /// (AVX-512: one compare per 8 codes), so only hits leave it: the cost is the popcount
    /// scan itself, O(count), plus O(1) per hit.
    public static func forEachMatch(of query: UInt64, in codes: UnsafeBufferPointer<UInt64>, maxDistance: Int,
                                    using isa: InstructionSet = .best, _ body: (_ index: Int, _ distance: Int) -> Void) {
        filteredScan(count: codes.count, cutoff: maxDistance) { start, n, cutoff, indices, distances, capacity, scanned in
            glimpse_hamming64_within(isa.code, query, codes.baseAddress! + start, n, Int32(cutoff), indices, distances, capacity, scanned)
        } accept: { index, distance in
            body(index, distance)
            return maxDistance
        }
    }

    /// Calls `body(index, distance)` for every 256-bit code (4 words each) within
    /// `maxDistance` bits of `query`, in index order; the radius test runs in the SIMD kernel.
    /// O(count) plus O(1) per hit.
    public static func forEachMatch(of query: PDQHash, in codes: UnsafeBufferPointer<UInt64>, maxDistance: Int,
                                    using isa: InstructionSet = .best, _ body: (_ index: Int, _ distance: Int) -> Void) {
        precondition(codes.count % 4 == 0, "256-bit codes take 4 words each; got \(codes.count) words")
        withUnsafeBytes(of: query.words) { q in
            let query4 = q.baseAddress?.assumingMemoryBound(to: UInt64.self)
            filteredScan(count: codes.count / 4, cutoff: maxDistance) { start, n, cutoff, indices, distances, capacity, scanned in
                glimpse_hamming256_within(isa.code, query4, codes.baseAddress! + 4 * start, n, Int32(cutoff), indices, distances,
                                          capacity, scanned)
            } accept: { index, distance in
                body(index, distance)
                return maxDistance
            }
        }
    }

    /// Every 64-bit code within `maxDistance` bits of `query`, closest first (ties by index).
    /// O(count) plus O(m log m) for m hits.
    public static func matches(of query: UInt64, in codes: UnsafeBufferPointer<UInt64>, maxDistance: Int,
                               using isa: InstructionSet = .best) -> [ScanMatch] {
        var hits: [ScanMatch] = []
        forEachMatch(of: query, in: codes, maxDistance: maxDistance, using: isa) { hits.append(ScanMatch(index: $0, distance: $1)) }
        hits.sort()
        return hits
    }

    /// Every 256-bit code (4 words each) within `maxDistance` bits of `query`, closest first
    /// (ties by index). O(count) plus O(m log m) for m hits.
    public static func matches(of query: PDQHash, in codes: UnsafeBufferPointer<UInt64>, maxDistance: Int,
                               using isa: InstructionSet = .best) -> [ScanMatch] {
        var hits: [ScanMatch] = []
        forEachMatch(of: query, in: codes, maxDistance: maxDistance, using: isa) { hits.append(ScanMatch(index: $0, distance: $1)) }
        hits.sort()
        return hits
    }

    /// The `k` 64-bit codes closest to `query` (at most `maxDistance` away), closest first,
    /// ties broken by the lower index. The kernel compares every code with the running
    /// cut-off (the k-th best distance so far) in SIMD and hands over only the codes that
    /// beat it, so the cost is that of the popcount scan: O(count) time, O(k) memory.
    public static func nearest(_ k: Int, to query: UInt64, in codes: UnsafeBufferPointer<UInt64>,
                               maxDistance: Int = 64, using isa: InstructionSet = .best) -> [ScanMatch] {
        nearest(k, count: codes.count, maxDistance: maxDistance) { start, n, cutoff, indices, distances, capacity, scanned in
            glimpse_hamming64_within(isa.code, query, codes.baseAddress! + start, n, Int32(cutoff), indices, distances, capacity, scanned)
        }
    }

    /// The `k` 256-bit codes (4 words each) closest to `query` (at most `maxDistance` away),
    /// closest first, ties broken by the lower index. O(count), filtered in the kernel as for
    /// 64-bit codes.
    public static func nearest(_ k: Int, to query: PDQHash, in codes: UnsafeBufferPointer<UInt64>,
                               maxDistance: Int = 256, using isa: InstructionSet = .best) -> [ScanMatch] {
        precondition(codes.count % 4 == 0, "256-bit codes take 4 words each; got \(codes.count) words")
        return withUnsafeBytes(of: query.words) { q in
            let query4 = q.baseAddress?.assumingMemoryBound(to: UInt64.self)
            return nearest(k, count: codes.count / 4, maxDistance: maxDistance) { start, n, cutoff, indices, distances, capacity, scanned in
                glimpse_hamming256_within(isa.code, query4, codes.baseAddress! + 4 * start, n, Int32(cutoff), indices, distances,
                                          capacity, scanned)
            }
        }
    }

    // MARK: - PDQ word planes, many queries per pass

    /// Most query codes one ``forEachPlaneMatch(of:planes:stride:count:maxDistance:using:_:)`` kernel
    /// call compares at once (more are split into several passes over the codes).
    public static let maximumQueriesPerPass = Int(GLIMPSE_PLANE_SCAN_MAX_QUERIES)

    /// Calls `body(index, query, distance)` for every 256-bit code within `maxDistance` bits
    /// of any of `queries`, codes in index order and, for one code, queries in order.
    ///
    /// `planes` holds the codes as four word planes (struct of arrays): word `w` of code `i`
    /// is `planes[w * stride + i]` (`stride` ≥ `count`; a sub-range of a larger set of planes
    /// is the same buffer rebased at its first code, with the full set's stride), so the kernel loads each word of 4 (AVX2) or 8 (AVX-512)
    /// consecutive codes with one vector load and compares them with every query before moving
    /// on: one pass over the codes' memory however many queries there are (up to
    /// ``maximumQueriesPerPass``; more take one pass per group). Same hits on every path.
    ///
    /// - Complexity: O(count × queries) popcounts, reading `32 × count` bytes once per group
    ///   of queries, plus O(1) per hit.
    /// - Precondition: `stride >= count` and `planes.count >= 3 * stride + count`.
    public static func forEachPlaneMatch(
        of queries: [PDQHash], planes: UnsafeBufferPointer<UInt64>, stride: Int, count: Int, maxDistance: Int,
        using isa: InstructionSet = .best, _ body: (_ index: Int, _ query: Int, _ distance: Int) -> Void
    ) {
        forEachPlaneMatchBatch(of: queries, planes: planes, stride: stride, count: count, maxDistance: maxDistance, using: isa) { batch in
            for k in 0..<batch.count {
                let hit = batch[k]
                body(hit.index, hit.query, hit.distance)
            }
        }
    }

    /// The hits of one kernel call of ``forEachPlaneMatchBatch(of:planes:stride:count:maxDistance:using:_:)``,
    /// in order: read them with the subscript while the closure runs (the buffers are reused).
    public struct PlaneMatchBatch {
        let indices: UnsafePointer<UInt32>
        let queries: UnsafePointer<UInt16>
        let distances: UnsafePointer<UInt16>
        let indexOffset: Int
        let queryOffset: Int
        /// Number of hits.
        public let count: Int

        /// The same hits with every code index `offset` higher (for a scan of a sub-range). O(1).
        public func shifted(by offset: Int) -> PlaneMatchBatch {
            PlaneMatchBatch(indices: indices, queries: queries, distances: distances, indexOffset: indexOffset + offset,
                            queryOffset: queryOffset, count: count)
        }

        /// Hit `k` (0 ..< ``count``): code index, query index and distance. O(1).
        @inline(__always)
        public subscript(k: Int) -> (index: Int, query: Int, distance: Int) {
            (indexOffset + Int(indices[k]), queryOffset + Int(queries[k]), Int(distances[k]))
        }
    }

    /// ``forEachPlaneMatch(of:planes:stride:count:maxDistance:using:_:)`` handing over the hits
    /// a batch at a time (up to a few hundred, same order), so a caller can start fetching what
    /// it needs for all of them (``prefetch(_:)``) before it looks at the first.
    ///
    /// - Complexity: as ``forEachPlaneMatch(of:planes:stride:count:maxDistance:using:_:)``.
    public static func forEachPlaneMatchBatch(
        of queries: [PDQHash], planes: UnsafeBufferPointer<UInt64>, stride: Int, count: Int, maxDistance: Int,
        using isa: InstructionSet = .best, _ body: (PlaneMatchBatch) -> Void
    ) {
        precondition(stride >= count && planes.count >= 3 * stride + count,
                     "four word planes of \(count) codes, stride \(stride), need \(3 * stride + count) words, got \(planes.count)")
        guard count > 0, maxDistance >= 0, !queries.isEmpty, let base = planes.baseAddress else { return }
        let radius = Int32(min(maxDistance, 256))
        var groupStart = 0
        while groupStart < queries.count {
            let groupEnd = min(queries.count, groupStart + maximumQueriesPerPass)
            var words: [UInt64] = []
            words.reserveCapacity(4 * (groupEnd - groupStart))
            for query in queries[groupStart..<groupEnd] { query.appendWords(to: &words) }
            let capacity = candidateCapacity + 8 * (groupEnd - groupStart) // GLIMPSE_PLANE_SCAN_MIN_CAPACITY
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { indices in
                withUnsafeTemporaryAllocation(of: UInt16.self, capacity: capacity) { queryIndices in
                    withUnsafeTemporaryAllocation(of: UInt16.self, capacity: capacity) { distances in
                        words.withUnsafeBufferPointer { q in
                            var start = 0, scanned = 0
                            while start < count {
                                let n = min(count - start, maximumKernelSpan)
                                let found = glimpse_pdq_planes_within(
                                    isa.code, q.baseAddress, groupEnd - groupStart, radius, base + start, stride, n,
                                    indices.baseAddress, queryIndices.baseAddress, distances.baseAddress, capacity, &scanned)
                                if found > 0 {
                                    body(PlaneMatchBatch(indices: UnsafePointer(indices.baseAddress!), queries: UnsafePointer(queryIndices.baseAddress!),
                                                         distances: UnsafePointer(distances.baseAddress!), indexOffset: start,
                                                         queryOffset: groupStart, count: found))
                                }
                                start += max(scanned, 1)
                            }
                        }
                    }
                }
            }
            groupStart = groupEnd
        }
    }

    /// Hints that the cache line at `address` will be read soon; no effect on any result. O(1).
    @inline(__always)
    public static func prefetch(_ address: UnsafeRawPointer) { glimpse_prefetch(address) }

    // MARK: - shared selection

    /// One call of a `glimpse_hamming*_within` kernel: codes `start ..< start + n`, radius
    /// `cutoff`, candidate buffers of `capacity`; returns the hits written and sets `scanned`.
    typealias WithinKernel = (_ start: Int, _ n: Int, _ cutoff: Int, _ indices: UnsafeMutablePointer<UInt32>,
                              _ distances: UnsafeMutablePointer<UInt16>, _ capacity: Int, _ scanned: UnsafeMutablePointer<Int>) -> Int

    /// Candidate entries per kernel call in the filtered scans.
    static let candidateCapacity = 256
    /// Codes per kernel call (indices are 32-bit inside the kernel).
    static let maximumKernelSpan = 1 << 30

    /// Drives a filtered kernel over `count` codes: every hit within the current cut-off goes
    /// to `accept`, which returns the new cut-off (it may only shrink). Stops early once the
    /// cut-off is negative.
    static func filteredScan(count: Int, cutoff initial: Int, kernel: WithinKernel,
                             accept: (_ index: Int, _ distance: Int) -> Int) {
        guard count > 0, initial >= 0 else { return }
        var cutoff = min(initial, Int(Int32.max))
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: candidateCapacity) { indices in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: candidateCapacity) { distances in
                var start = 0, scanned = 0
                while start < count && cutoff >= 0 {
                    let n = min(count - start, maximumKernelSpan)
                    let found = kernel(start, n, cutoff, indices.baseAddress!, distances.baseAddress!, candidateCapacity, &scanned)
                    for j in 0..<found where Int(distances[j]) <= cutoff {
                        cutoff = min(cutoff, accept(start + Int(indices[j]), Int(distances[j])))
                    }
                    start += max(scanned, 1)
                }
            }
        }
    }

    /// Bounded top-k over a filtered kernel: candidates are kept until there are 2k, then
    /// re-selected to k and the cut-off set just below the k-th distance (later indices lose
    /// ties, so only strictly closer codes can still enter).
    static func nearest(_ k: Int, count: Int, maxDistance: Int, kernel: WithinKernel) -> [ScanMatch] {
        guard k > 0, maxDistance >= 0 else { return [] }
        var kept: [ScanMatch] = []
        kept.reserveCapacity(2 * k + 1)
        var cutoff = maxDistance
        filteredScan(count: count, cutoff: maxDistance, kernel: kernel) { index, distance in
            kept.append(ScanMatch(index: index, distance: distance))
            if kept.count >= 2 * k {
                kept.sort()
                kept.removeSubrange(k...)
                cutoff = kept[k - 1].distance - 1
            }
            return cutoff
        }
        kept.sort()
        if kept.count > k { kept.removeSubrange(k...) }
        return kept
    }

    /// Bounded top-k over a distance kernel that writes every distance of a block (used by
    /// ``HistogramScan``): a running cut-off distance (the k-th best so far) lets most codes be
    /// rejected with one compare; the kept candidates are re-selected when they reach 2k.
    static func topK(_ k: Int, count: Int, maxDistance: Int,
                     score: (Int, Int, UnsafeMutableBufferPointer<UInt16>) -> Void) -> [ScanMatch] {
        guard k > 0, maxDistance >= 0 else { return [] }
        var kept: [ScanMatch] = []
        kept.reserveCapacity(2 * k + blockSize)
        var cutoff = maxDistance
        withUnsafeTemporaryAllocation(of: UInt16.self, capacity: blockSize) { block in
            var start = 0
            while start < count {
                let n = min(blockSize, count - start)
                score(start, n, block)
                for i in 0..<n where Int(block[i]) <= cutoff {
                    kept.append(ScanMatch(index: start + i, distance: Int(block[i])))
                    if kept.count >= 2 * k {
                        kept.sort()
                        kept.removeSubrange(k...)
                        // Later indices lose ties, so only strictly closer codes can enter.
                        cutoff = kept[k - 1].distance - 1
                    }
                }
                start += n
            }
        }
        kept.sort()
        if kept.count > k { kept.removeSubrange(k...) }
        return kept
    }
}

extension PDQHash {
    /// Appends the four words of this hash to a 256-bit code buffer (the layout
    /// ``HammingScan`` reads).
    public func appendWords(to buffer: inout [UInt64]) {
        buffer.append(words[0])
        buffer.append(words[1])
        buffer.append(words[2])
        buffer.append(words[3])
    }
}

/// Bulk L1 scans over contiguous 64-byte colour histograms (``ColorHistogram/packed``
/// back to back): the histogram counterpart of ``HammingScan``. AVX-512 BW `vpsadbw`
/// when available, AVX2 `vpsadbw` else, a plain loop otherwise; identical answers.
public enum HistogramScan {
    /// Writes the L1 distance from `query` to each 64-byte histogram in `rows`.
    ///
    /// - Precondition: `rows.count` is a multiple of 64, `out.count >= rows.count / 64`.
    public static func distances(from query: ColorHistogram, to rows: UnsafeBufferPointer<UInt8>,
                                 into out: UnsafeMutableBufferPointer<UInt16>, using isa: InstructionSet = .best) {
        precondition(rows.count % 64 == 0, "histograms take 64 bytes each; got \(rows.count) bytes")
        let n = rows.count / 64
        precondition(out.count >= n, "output holds \(out.count) distances, need \(n)")
        guard let r = rows.baseAddress, let o = out.baseAddress, n > 0 else { return }
        withUnsafeBytes(of: query.packed) { q in
            glimpse_l1_u8x64_distances(isa.code, q.baseAddress?.assumingMemoryBound(to: UInt8.self), r, n, o)
        }
    }

    /// The `k` histograms closest to `query` (L1 at most `maxDistance`), closest first,
    /// ties broken by the lower index. O(count).
    public static func nearest(_ k: Int, to query: ColorHistogram, in rows: UnsafeBufferPointer<UInt8>,
                               maxDistance: Int = 16320, using isa: InstructionSet = .best) -> [ScanMatch] {
        precondition(rows.count % 64 == 0, "histograms take 64 bytes each; got \(rows.count) bytes")
        return HammingScan.topK(k, count: rows.count / 64, maxDistance: maxDistance) { start, n, out in
            distances(from: query, to: UnsafeBufferPointer(rebasing: rows[(64 * start)..<(64 * (start + n))]), into: out, using: isa)
        }
    }
}

extension ColorHistogram {
    /// Appends the 64 bins to a histogram buffer (the layout ``HistogramScan`` reads).
    public func appendBins(to buffer: inout [UInt8]) {
        withUnsafeBytes(of: packed) { buffer.append(contentsOf: $0) }
    }
}
