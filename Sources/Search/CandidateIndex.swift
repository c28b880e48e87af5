import Catalog
import Fingerprints

/// The first stage of a large catalog's search: an inverted file over the views'
/// ``CandidateCode``s that proposes the landmarks worth scoring without touching every view.
///
/// Every view of the ``VisualIndex`` it was built from is an entry of exactly one list, the
/// list of its nearest centroid (k-majority centroids of the codes, trained in two levels;
/// see ``build(from:lists:threads:)``). A query code is compared with every centroid, the
/// ``SearchParameters/probes`` nearest lists are read, and each entry within
/// ``SearchParameters/radius`` code bits proposes its landmark (full-frame entries only for
/// the query's inner views, as in the exhaustive scan's second pass, which read
/// ``SearchParameters/innerProbeFactor`` times as many lists). The landmarks proposed
/// are then scored exactly by `VisualIndex.rescore` (the exhaustive scan's pair rule and tie order)
/// over all their views, so every score shown is the exhaustive scan's score for that
/// landmark; what the first stage can change is only which landmarks are scored.
///
/// Memory: 20 bytes per view (a 16-byte code and a 4-byte landmark reference) plus 4 bytes
/// per landmark and 20 bytes per list: at most 624 bytes per image of the default 31-view
/// layout (519 measured on a million real crops, whose flat views are not indexed), against
/// 3,151 for the exhaustive index; the visual index it re-ranks from stays
/// a memory-mapped file whose pages only the candidates touch. Immutable, shared freely.
public struct CandidateIndex: Sendable {
    let storage: VisualIndexStorage
    let layout: CandidateIndexLayout
    /// The catalog generation of the visual index it was built from.
    public let generation: Int64
    /// The ``VisualIndex/identity`` of the index it was built from.
    public let indexIdentity: UInt64

    /// Number of lists (centroids). O(1).
    public var listCount: Int { layout.lists }
    /// Number of entries (views of the visual index). O(1).
    public var entryCount: Int { layout.entries }
    /// Bytes of the image (what stays resident while it is searched). O(1).
    public var bytesUsed: Int { layout.length }

    @inline(__always) func section<T>(_ offset: Int, _ count: Int, as type: T.Type) -> UnsafeBufferPointer<T> {
        UnsafeBufferPointer(start: (storage.base + offset).assumingMemoryBound(to: T.self), count: count)
    }
    var centroids: UnsafeBufferPointer<CandidateCode> { section(layout.centroids, layout.lists, as: CandidateCode.self) }
    var listOffsets: UnsafeBufferPointer<UInt32> { section(layout.listOffsets, layout.lists + 1, as: UInt32.self) }
    /// List l's full-frame entries are `listOffsets[l] ..< fullEnds[l]`.
    var fullEnds: UnsafeBufferPointer<UInt32> { section(layout.fullEnds, layout.lists, as: UInt32.self) }
    var codes: UnsafeBufferPointer<CandidateCode> { section(layout.codes, layout.entries, as: CandidateCode.self) }
    var references: UnsafeBufferPointer<UInt32> { section(layout.references, layout.entries, as: UInt32.self) }
    /// Landmark n owns views `viewStarts[n] ..< viewStarts[n + 1]` of the visual index.
    var viewStarts: UnsafeBufferPointer<UInt32> { section(layout.viewStarts, layout.landmarks + 1, as: UInt32.self) }

    /// Whether it was built from `index` (same catalog generation and identity). O(1).
    public func belongs(to index: VisualIndex) -> Bool {
        generation == index.version.generation && indexIdentity == index.identity
            && layout.entries == index.viewCount && layout.landmarks == index.landmarkCount
    }

    /// How a search uses the first stage. The defaults are the measured operating point
    /// (docs/PERFORMANCE.md, "The first stage").
    public struct SearchParameters: Sendable, Hashable, Codable {
        /// Lists read per query code (the nearest centroids).
        public var probes: Int
        /// Largest code distance (0…128) at which an entry proposes its landmark.
        public var radius: Int
        /// Most landmarks scored exactly per query (those with the nearest entries).
        public var maximumCandidates: Int
        /// How many times ``probes`` the query's inner views read (they compare with
        /// full-frame entries only, the head of each list).
        public var innerProbeFactor: Int
        /// When set, ``probes`` and ``innerProbeFactor`` are ignored: the query's views share
        /// one budget of entries read, spent on the (view, list) pairs with the nearest
        /// centroids first, whatever view they belong to (a full-frame view costs its lists'
        /// entries, an inner view their full-frame heads); `nil`: every view reads its own
        /// number of lists.
        public var entryBudget: Int?
        /// When set (above ``maximumCandidates``), this many landmarks are taken by their
        /// nearest code, then ranked again by a cheap estimate of their score (the PDQ
        /// distance between the query view of that nearest code and the landmark's nearest
        /// view, beside the code distance; ``VisualIndex``'s shortlist) before the
        /// ``maximumCandidates`` best are scored exactly; `nil`: the nearest codes alone choose.
        public var shortlist: Int?

        /// Creates parameters; every one has the documented default.
        public init(probes: Int = 128, radius: Int = 48, maximumCandidates: Int = 1024, innerProbeFactor: Int = 4, entryBudget: Int? = nil,
                    shortlist: Int? = nil) {
            self.entryBudget = entryBudget.map { max(1, $0) }
            self.shortlist = shortlist.flatMap { $0 > max(1, maximumCandidates) ? $0 : nil }
            self.probes = max(1, probes)
            self.radius = max(0, min(128, radius))
            self.maximumCandidates = max(1, maximumCandidates)
            self.innerProbeFactor = max(1, innerProbeFactor)
        }
    }

    /// The landmarks the first stage proposes for `query`: for each informative query view,
    /// the entries of its ``SearchParameters/probes`` nearest lists within the radius
    /// (full-frame entries only for views other than the full frame), each landmark ranked by
    /// its nearest entry, the first ``SearchParameters/maximumCandidates`` kept (ties by
    /// landmark number). Deterministic.
    ///
    /// - Returns: landmark numbers of the visual index, ascending.
    /// - Complexity: O(query views × (lists + probes × list length)) code distances, plus
    ///   O(c log c) for the c landmarks within the radius.
    public func candidates(for query: Fingerprint, minimumViewQuality: Int, parameters: SearchParameters = SearchParameters(),
                           using isa: InstructionSet = .best) -> [Int32] {
        candidates(for: query.views.filter { $0.quality >= minimumViewQuality }.map { QueryCode(code: CandidateCode(pHash: $0.pHash, dHash: $0.dHash), isFullFrame: $0.region == .full) },
                   parameters: parameters, using: isa)
    }

    /// One informative query view as the first stage reads it.
    public struct QueryCode: Sendable, Hashable {
        /// The view's code.
        public var code: CandidateCode
        /// Whether the view is the query's full frame (it then reads whole lists; an inner
        /// view reads only their full-frame heads).
        public var isFullFrame: Bool

        /// Creates a query code.
        public init(code: CandidateCode, isFullFrame: Bool) {
            self.code = code
            self.isFullFrame = isFullFrame
        }
    }

    /// The landmarks the first stage proposes for these query views
    /// (``candidates(for:minimumViewQuality:parameters:using:)`` once the views are chosen):
    /// what `glimpse debug-first-stage --queries` measures on codes other tools read too.
    ///
    /// - Returns: landmark numbers of the visual index, ascending.
    /// - Complexity: O(codes × (lists + probes × list length)) code distances, plus O(c log c)
    ///   for the c landmarks within the radius.
    public func candidates(for queryCodes: [QueryCode], parameters: SearchParameters = SearchParameters(),
                           using isa: InstructionSet = .best) -> [Int32] {
        proposals(for: queryCodes, parameters: parameters, limit: parameters.maximumCandidates, using: isa).map(\.landmark)
    }

    /// A landmark the first stage proposes, with what ranked it.
    public struct Proposal: Sendable, Hashable {
        /// Landmark number of the visual index.
        public var landmark: Int32
        /// Code distance (0…128) of its nearest entry to a query code.
        public var distance: UInt8
        /// Which query code (index into the codes searched) reached that nearest entry
        /// (the first such code when several did).
        public var queryCode: UInt8
    }

    /// The `limit` landmarks with the nearest entries to these query views (ties by landmark
    /// number), each with its nearest code distance and the query code that reached it:
    /// ``candidates(for:parameters:using:)`` before the landmark numbers are taken.
    ///
    /// - Returns: proposals in ascending landmark order.
    /// - Complexity: O(codes × (lists + probes × list length)) code distances, plus
    ///   O(landmarks) for the cut.
    public func proposals(for queryCodes: [QueryCode], parameters: SearchParameters, limit: Int,
                          using isa: InstructionSet = .best) -> [Proposal] {
        let offsets = listOffsets, fullEnds = self.fullEnds
        let centroidWords = section(layout.centroids, 2 * layout.lists, as: UInt64.self)
        let codeWords = section(layout.codes, 2 * layout.entries, as: UInt64.self), references = self.references
        let radius = parameters.radius
        let limit = max(1, limit)
        // Each landmark's nearest entry distance (radius + 1: none yet), the query code that
        // reached it, and the landmarks touched, in flat tables rather than a dictionary:
        // the scan's hits are many.
        var nearest = [UInt8](repeating: UInt8(radius + 1), count: layout.landmarks)
        var nearestCode = [UInt8](repeating: 0, count: layout.landmarks)
        var touched: [Int32] = []
        var counts = [Int](repeating: 0, count: 129)
        var hits: [UInt32] = [], hitDistances: [UInt8] = []
        // Every query view's distance to every centroid, view after view.
        let lists = layout.lists
        var distances = [UInt8](repeating: 0, count: queryCodes.count * lists)
        distances.withUnsafeMutableBufferPointer { all in
            for (v, queryCode) in queryCodes.enumerated() {
                CodeScan128.distances(low: queryCode.code.low, high: queryCode.code.high, to: centroidWords,
                                      into: UnsafeMutableBufferPointer(rebasing: all[v * lists ..< (v + 1) * lists]), using: isa)
            }
        }
        let probed = parameters.entryBudget.map { sharedProbes(queryCodes, distances: distances, budget: $0) }
            ?? perViewProbes(queryCodes, distances: distances, parameters: parameters)
        nearest.withUnsafeMutableBufferPointer { nearest in
        nearestCode.withUnsafeMutableBufferPointer { nearestCode in
        for (v, queryCode) in queryCodes.enumerated() {
            let code = queryCode.code
            // Views other than the full frame are compared with full-frame entries only: the
            // head of each list.
            let fullOnly = !queryCode.isFullFrame
            for l in probed[v] {
                let first = Int(offsets[l]), end = fullOnly ? Int(fullEnds[l]) : Int(offsets[l + 1])
                if hits.count < end - first {
                    hits = [UInt32](repeating: 0, count: end - first)
                    hitDistances = [UInt8](repeating: 0, count: end - first)
                }
                hits.withUnsafeMutableBufferPointer { h in
                    hitDistances.withUnsafeMutableBufferPointer { d in
                        let found = CodeScan128.within(low: code.low, high: code.high, radius: radius,
                                                       codes: UnsafeBufferPointer(rebasing: codeWords[2 * first ..< 2 * end]),
                                                       references: UnsafeBufferPointer(rebasing: references[first..<end]), required: 0,
                                                       hits: h, distances: d, using: isa)
                        for k in 0..<found {
                            let owner = Int(h[k] & ~CandidateIndexLayout.fullFrameBit), distance = d[k]
                            let current = nearest[owner]
                            if Int(current) > radius { touched.append(Int32(owner)) }
                            if distance < current {
                                nearest[owner] = distance
                                nearestCode[owner] = UInt8(truncatingIfNeeded: v)
                            }
                        }
                    }
                }
            }
        }
        }
        }
        // Ascending landmark numbers from one pass over the table (cheaper than sorting the
        // touched ones, which can be many); past the cap, the nearest are kept: a counting
        // pass over their distances finds the cut, landmarks at the cut in number order.
        var cut = radius, atCut = Int.max
        if touched.count > limit {
            for k in 0..<counts.count { counts[k] = 0 }
            for owner in touched { counts[Int(nearest[Int(owner)])] += 1 }
            var below = 0
            cut = 0
            while below + counts[cut] < limit { below += counts[cut]; cut += 1 }
            atCut = limit - below
        }
        var kept: [Proposal] = []
        kept.reserveCapacity(min(touched.count, limit))
        for (owner, d) in nearest.enumerated() where Int(d) <= cut {
            if Int(d) < cut || atCut > 0 {
                if Int(d) == cut { atCut -= 1 }
                kept.append(Proposal(landmark: Int32(owner), distance: d, queryCode: nearestCode[owner]))
            }
        }
        return kept
    }
}
