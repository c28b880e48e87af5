import Catalog
import Dispatch
import Fingerprints

extension CandidateIndex {
    /// The list count used for `views` views: a power of two near 2√views, 64…65,536, so a
    /// list holds about √views / 2 entries. O(1).
    public static func defaultListCount(views: Int) -> Int {
        let target = 2 * Double(max(views, 1)).squareRoot()
        var lists = 64
        while lists < 65_536 && Double(lists) * 1.5 < target { lists *= 2 }
        return lists
    }

    /// Builds the first stage of `index`: every view's code, k-majority centroids trained on
    /// an evenly spaced sample of the codes (at most 64 per list) in two levels (√lists
    /// coarse centroids, then √lists fine ones inside each coarse cell, the same for every
    /// run), and every view put in the list of its nearest fine centroid within its nearest
    /// coarse cell. Deterministic: the same index gives the same bytes.
    ///
    /// - Parameters:
    ///   - lists: the list count, rounded to a power of two (default ``defaultListCount(views:)``).
    ///   - threads: threads the code projection and the assignment run on.
    /// - Throws: ``VisualIndexDamage`` when `index` is a mapped snapshot whose PDQ planes do
    ///   not match their checksums.
    /// - Complexity: O(views × 2√lists) code distances, plus O(sample × √lists × iterations)
    ///   for training; about 5 bytes per view of temporary memory besides the result (each
    ///   view's list and a full-frame flag; codes are read from `index` where needed).
    public static func build(from index: VisualIndex, lists requested: Int? = nil, threads: Int = AvailableCores.count) throws(VisualIndexDamage) -> CandidateIndex {
        let n = index.viewCount
        var lists = 1
        while lists < max(1, min(requested ?? defaultListCount(views: n), 1 << 20)) { lists *= 2 }
        var coarseBits = 0
        while (1 << (2 * (coarseBits + 1))) <= lists { coarseBits += 1 }
        let coarse = 1 << coarseBits, fine = lists / coarse
        try index.storage.check(index.layout.pHashes ..< index.layout.pHashes + 8 * n)
        try index.storage.check(index.layout.dHashes ..< index.layout.dHashes + 8 * n)

        // Every view's code, read from the index's pHashes and dHashes when needed (a copy of
        // them all would be 16 bytes a view: 5 GB at ten million images).
        let pHashes = index.pHashes, dHashes = index.dHashes
        func code(_ v: Int) -> CandidateCode { CandidateCode(pHash: pHashes[v], dHash: dHashes[v]) }
        let threads = max(1, threads)

        // Training: coarse centroids on the sample, then fine ones per coarse cell.
        let sampleCount = min(n, 64 * lists)
        let sample = (0..<sampleCount).map { code(Int((Int64(n) * Int64($0)) / Int64(max(sampleCount, 1)))) }
        let coarseCentroids = KMajority.train(sample, clusters: coarse, iterations: 10)
        let sampleCells = KMajority.assign(sample, to: coarseCentroids, threads: threads)
        var members = [[CandidateCode]](repeating: [], count: coarse)
        for (k, cell) in sampleCells.enumerated() { members[Int(cell)].append(sample[k]) }
        let cellMembers = members
        let fineParts = ThreadParts<[CandidateCode]>(count: coarse)
        DispatchQueue.concurrentPerform(iterations: coarse) { c in
            fineParts.set(c, cellMembers[c].isEmpty
                ? [CandidateCode](repeating: coarseCentroids[c], count: fine)
                : KMajority.train(cellMembers[c], clusters: fine, iterations: 8))
        }
        var centroids: [CandidateCode] = []
        centroids.reserveCapacity(lists)
        for c in 0..<coarse { centroids.append(contentsOf: fineParts.take(c)) }

        // Assignment: the nearest coarse cell, then its nearest fine centroid.
        var listOf = [UInt32](repeating: 0, count: n)
        listOf.withUnsafeMutableBufferPointer { out in
            let out = UncheckedBuffer(out)
            let table = centroids, coarseTable = coarseCentroids
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                let pHashes = index.pHashes, dHashes = index.dHashes
                coarseTable.withUnsafeBufferPointer { cells in
                    table.withUnsafeBufferPointer { all in
                        for v in (n * part / threads)..<(n * (part + 1) / threads) {
                            let viewCode = CandidateCode(pHash: pHashes[v], dHash: dHashes[v])
                            let first = KMajority.nearest(viewCode, in: cells) * fine
                            let f = KMajority.nearest(viewCode, in: UnsafeBufferPointer(rebasing: all[first..<first + fine]))
                            out.buffer[v] = UInt32(first + f)
                        }
                    }
                }
            }
        }

        // The image: lists in order, views in number order within a list.
        let layout = CandidateIndexLayout(lists: lists, entries: n, landmarks: index.landmarkCount)
        let storage = VisualIndexStorage(allocating: layout.length)
        let base = storage.mutableBase
        func fill<T>(_ offset: Int, _ count: Int, as type: T.Type) -> UnsafeMutableBufferPointer<T> {
            UnsafeMutableBufferPointer(start: (base + offset).bindMemory(to: T.self, capacity: count), count: count)
        }
        let centroidRows = fill(layout.centroids, lists, as: CandidateCode.self)
        for l in 0..<lists { centroidRows[l] = centroids[l] }
        let offsets = fill(layout.listOffsets, lists + 1, as: UInt32.self)
        for v in 0..<n { offsets[Int(listOf[v]) + 1] += 1 }
        for l in 0..<lists { offsets[l + 1] += offsets[l] }
        var isFull = [Bool](repeating: false, count: n)
        for f in index.fullViews { isFull[Int(f)] = true }
        let codes = fill(layout.codes, n, as: CandidateCode.self), references = fill(layout.references, n, as: UInt32.self)
        let fullEnds = fill(layout.fullEnds, lists, as: UInt32.self)
        // Full-frame views first in each list, then the others, each in view order.
        for l in 0..<lists { fullEnds[l] = offsets[l] }
        for v in 0..<n where isFull[v] { fullEnds[Int(listOf[v])] += 1 }
        var nextFull = (0..<lists).map { Int(offsets[$0]) }, nextOther = (0..<lists).map { Int(fullEnds[$0]) }
        let owners = index.owners
        for v in 0..<n {
            let l = Int(listOf[v])
            let slot: Int
            if isFull[v] { slot = nextFull[l]; nextFull[l] += 1 } else { slot = nextOther[l]; nextOther[l] += 1 }
            codes[slot] = code(v)
            references[slot] = UInt32(bitPattern: owners[v]) | (isFull[v] ? CandidateIndexLayout.fullFrameBit : 0)
        }
        let starts = fill(layout.viewStarts, index.landmarkCount + 1, as: UInt32.self)
        for v in 0..<n { starts[Int(owners[v]) + 1] += 1 }
        for k in 0..<index.landmarkCount { starts[k + 1] += starts[k] }
        layout.writeHeader(to: base, generation: index.version.generation, identity: index.identity)
        return CandidateIndex(storage: storage, layout: layout, generation: index.version.generation, indexIdentity: index.identity)
    }
}

/// A mutable buffer shared by the threads of a split loop that write disjoint elements.
private struct UncheckedBuffer<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}

/// k-majority clustering of binary codes (k-means under the Hamming distance, the centroid
/// bit the majority of its members' bits), the quantizer of faiss's binary inverted files.
enum KMajority {
    /// `clusters` centroids of `points`: started from evenly spaced points, then
    /// `iterations` rounds of assigning and re-voting; a cluster left empty keeps its
    /// centroid. Deterministic. O(points × clusters × iterations).
    static func train(_ points: [CandidateCode], clusters: Int, iterations: Int) -> [CandidateCode] {
        guard !points.isEmpty else { return [CandidateCode](repeating: CandidateCode(low: 0, high: 0), count: clusters) }
        var centroids = (0..<clusters).map { points[($0 * points.count) / clusters] }
        var votes = [Int32](repeating: 0, count: 128 * clusters)
        var sizes = [Int32](repeating: 0, count: clusters)
        for _ in 0..<iterations {
            let assigned = assign(points, to: centroids, threads: 1)
            for k in 0..<votes.count { votes[k] = 0 }
            for k in 0..<clusters { sizes[k] = 0 }
            for (p, cluster) in zip(points, assigned) {
                let c = Int(cluster)
                sizes[c] += 1
                var low = p.low, high = p.high
                while low != 0 { votes[128 * c + low.trailingZeroBitCount] += 1; low &= low - 1 }
                while high != 0 { votes[128 * c + 64 + high.trailingZeroBitCount] += 1; high &= high - 1 }
            }
            for c in 0..<clusters where sizes[c] > 0 {
                var low: UInt64 = 0, high: UInt64 = 0
                for b in 0..<64 where 2 * votes[128 * c + b] > sizes[c] { low |= 1 << UInt64(b) }
                for b in 0..<64 where 2 * votes[128 * c + 64 + b] > sizes[c] { high |= 1 << UInt64(b) }
                centroids[c] = CandidateCode(low: low, high: high)
            }
        }
        return centroids
    }

    /// Each point's nearest centroid (ties: the lower number). O(points × centroids).
    static func assign(_ points: [CandidateCode], to centroids: [CandidateCode], threads: Int) -> [UInt32] {
        let n = points.count
        var out = [UInt32](repeating: 0, count: n)
        let parts = n >= 65_536 ? max(1, threads) : 1
        out.withUnsafeMutableBufferPointer { buffer in
            let shared = UncheckedBuffer(buffer)
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                centroids.withUnsafeBufferPointer { table in
                    for k in (n * part / parts)..<(n * (part + 1) / parts) { shared.buffer[k] = UInt32(nearest(points[k], in: table)) }
                }
            }
        }
        return out
    }

    /// The position of `code`'s nearest centroid in `table` (ties: the lower position). O(table).
    @inline(__always)
    static func nearest(_ code: CandidateCode, in table: UnsafeBufferPointer<CandidateCode>) -> Int {
        var best = 0, bestDistance = Int.max
        for k in 0..<table.count {
            let d = code.distance(to: table[k])
            if d < bestDistance { bestDistance = d; best = k }
        }
        return best
    }
}
