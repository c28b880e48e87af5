import Fingerprints

extension CandidateIndex {
    /// The lists each query view reads when every view has its own count: its
    /// ``SearchParameters/probes`` nearest (times ``SearchParameters/innerProbeFactor`` for an
    /// inner view, which reads only their full-frame heads). A counting pass over the
    /// distances (0…128, the table's histograms) finds the cut; lists are taken in number
    /// order below it and at it.
    ///
    /// - Returns: per view, its lists in ascending number order.
    /// - Complexity: O(views × lists) byte comparisons (SIMD), plus O(views × probes).
    func perViewProbes(_ table: ProbeTable, parameters: SearchParameters, using isa: InstructionSet = .best) -> [[Int]] {
        let lists = layout.lists
        // The lists within each view's cut distance come from a SIMD compare of its row
        // (views × lists bytes: 400,000 at a million images, once as much as the first
        // look's list scan itself when read a byte at a time).
        var positions = [UInt32](repeating: 0, count: lists)
        return table.distances.withUnsafeBufferPointer { all in
            table.histograms.withUnsafeBufferPointer { histograms in
                positions.withUnsafeMutableBufferPointer { positions in
                    table.codes.indices.map { v in
                        let probes = min(table.codes[v].isFullFrame ? parameters.probes : parameters.probes * parameters.innerProbeFactor, lists)
                        let row = UnsafeBufferPointer(rebasing: all[v * lists ..< (v + 1) * lists])
                        let counts = UnsafeBufferPointer(rebasing: histograms[129 * v ..< 129 * (v + 1)])
                        var cut = 0, below = 0
                        while below + Int(counts[cut]) < probes { below += Int(counts[cut]); cut += 1 }
                        var atCut = probes - below
                        let strict = UInt8(cut)
                        let found = CodeScan128.positions(in: row, atMost: strict, into: positions, using: isa)
                        var chosen: [Int] = []
                        chosen.reserveCapacity(probes)
                        for position in positions[..<found] {
                            let l = Int(position)
                            if row[l] < strict { chosen.append(l) } else if atCut > 0 { chosen.append(l); atCut -= 1 }
                        }
                        return chosen
                    }
                }
            }
        }
    }

    /// The lists each query view reads when all views share ``SearchParameters/entryBudget``
    /// entries: (view, list) pairs in order of centroid distance, whichever view they belong
    /// to, until the entries they read (a whole list for a full-frame view, its full-frame
    /// head for an inner view) reach the budget; at the cut distance, pairs in view then list
    /// order. A view whose centroids are all far (a wrong orientation, a view of another
    /// image's margin) reads little, the view that resembles the catalog reads much.
    ///
    /// - Returns: per view, its lists in ascending number order.
    /// - Complexity: O(views × lists).
    func sharedProbes(_ queryCodes: [QueryCode], distances: [UInt8], budget: Int) -> [[Int]] {
        let lists = layout.lists, offsets = listOffsets, fullEnds = self.fullEnds
        @inline(__always) func cost(_ v: Int, _ l: Int) -> Int {
            (queryCodes[v].isFullFrame ? Int(offsets[l + 1]) : Int(fullEnds[l])) - Int(offsets[l])
        }
        var costAt = [Int](repeating: 0, count: 129)
        for v in queryCodes.indices {
            for l in 0..<lists { costAt[Int(distances[v * lists + l])] += cost(v, l) }
        }
        var cut = 0, below = 0
        while cut < 128 && below + costAt[cut] < budget { below += costAt[cut]; cut += 1 }
        var left = budget - below
        return queryCodes.indices.map { v in
            var chosen: [Int] = []
            for l in 0..<lists {
                let d = Int(distances[v * lists + l])
                if d < cut {
                    chosen.append(l)
                } else if d == cut && left > 0 {
                    chosen.append(l)
                    left -= cost(v, l)
                }
            }
            return chosen
        }
    }
}
