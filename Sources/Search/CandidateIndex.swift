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
        /// The cascade: when set, a search whose best landmark among the candidates has its
        /// exact score (0…1; no candidate counts as 0) in this range scans every view after
        /// all: the scores at which the candidates' answer may not be the exhaustive scan's
        /// (too weak to be sure no other landmark scores more, too strong to be sure none
        /// reaches the no-match threshold). A lower bound of 0 makes every answer below the
        /// upper bound exhaustive, "no match" included. `nil`: the candidates' answer
        /// whatever it scores. See `VisualIndex.search`. Default ``defaultUnsureScores``.
        public var unsureScores: Range<Double>?

        /// The default unsure scores, 0 ..< 0.45: a search whose best candidate scores under
        /// 0.45 (a weak match, none above the no-match threshold, or no candidate) is
        /// answered by the exhaustive scan. Measured on the million-crop catalog (2,914
        /// evaluation queries; docs/PERFORMANCE.md, "The cascade"): top-1 agreement with the
        /// exhaustive scan 0.9997 (0.981 without), recall@1 and false positives the
        /// exhaustive scan's on every transformation, 2.3 % of the positive queries and 99.6 %
        /// of the negative ones scanned whole.
        public static let defaultUnsureScores: Range<Double> = 0 ..< 0.45

        /// The first look: when set, with a cascade (``unsureScores``), a search first reads
        /// only ``FirstLook/probes`` lists per full-frame query code (times
        /// ``innerProbeFactor`` for an inner one) and scores at most
        /// ``FirstLook/maximumCandidates`` landmarks; when the best of them scores at least
        /// ``FirstLook/sureScore`` (and above the unsure range), that is the answer, and only
        /// otherwise does the search read ``probes`` lists (then, if still unsure, every
        /// view). A query that matches a catalog image closely reads a small part of the
        /// lists. `nil`: no first look. Default ``defaultFirstLook``.
        public var firstLook: FirstLook?

        /// The default first look: 8 lists per full-frame query code (32 per inner one), 64
        /// landmarks scored. Measured on the million-crop catalog (docs/PERFORMANCE.md, "The
        /// first look"): most matching queries are answered by it, in a sixth of the time of
        /// the whole first stage, with the same answers.
        /// Below 0.05 (nothing among its candidates even faintly like the query: every query
        /// in no catalog, and about one matching query in five, whose nearest lists hold
        /// nothing of it), the search scans every view at once, in an index of up to 4,000,000
        /// views (about 150,000 images of photos). Measured (docs/PERFORMANCE.md, "Nothing at
        /// the first look", AVX-512, mean per query): on 2.6 M views a non-matching query
        /// 39.2 → 28.8 ms and a matching one 8.4 → 7.9 ms; on 25.8 M views a non-matching
        /// query saves 35 ms (313 → 278) but a matching one costs 46 → 108 ms.
        /// Its glance (64 landmarks from the upright frame's 8 lists, sure from 0.7) answers a
        /// catalog photo sent as it is: `glimpse serve` at a million crops, 1080p JPEGs of a
        /// catalog photo, 237–273 requests/s against 193–214 without it (7.4 against 9.2 ms of
        /// CPU a request), the same top-1 answers over the evaluation's 2,914 queries
        /// (docs/PERFORMANCE.md, "The glance").
        public static let defaultFirstLook = FirstLook(probes: 8, maximumCandidates: 64, sureScore: 0.6, scanBelow: 0.05, scanBelowMaximumViews: 4_000_000,
                                                        glanceCandidates: 64, glanceSureScore: 0.7)

        /// How much a search's first look reads (``firstLook``).
        public struct FirstLook: Sendable, Hashable, Codable {
            /// Lists read per full-frame query code (the nearest centroids).
            public var probes: Int
            /// Most landmarks scored exactly.
            public var maximumCandidates: Int
            /// The least best score (0…1) at which the first look's answer stands: higher
            /// than the unsure range's bound, since a landmark the first look missed can
            /// outscore a weaker one it found (a crop of a wallpaper against the photo a crop
            /// query comes from).
            public var sureScore: Double
            /// The best score (0…1) under which the first look's answer sends the search
            /// straight to the exhaustive scan, without reading the rest of the first stage:
            /// a query whose nearest lists hold nothing even faintly like it (most queries
            /// that match nothing) would pay the whole first stage and then the scan. The
            /// answer is the scan's either way, so this only moves time; 0: never.
            public var scanBelow: Double
            /// The largest index (in views) whose searches use ``scanBelow``. It trades the
            /// whole first stage's time, saved for a query that matches nothing, against the
            /// exhaustive scan's, paid by a matching query whose nearest lists hold nothing of
            /// it (one in five) where the whole first stage would have answered it; the scan
            /// grows with the catalog faster than the first stage does, so past this size the
            /// trade loses.
            public var scanBelowMaximumViews: Int
            /// The glance, when above 0: before the first look, the query's first informative
            /// full frame (its upright one) alone reads ``probes`` lists and this many
            /// landmarks are scored; when the best of them scores at least
            /// ``glanceSureScore`` (and above the unsure range), that is the answer. A catalog
            /// image sent as it is (re-encoded, resized) is answered reading the lists of one
            /// query view of the fifty; any other query pays the glance on top of the first
            /// look. 0: none.
            public var glanceCandidates: Int
            /// The least best score (0…1, at least ``sureScore``) at which the glance's answer
            /// stands: one view's lists miss more of a query's near neighbours than the first
            /// look's fifty views do (overlapping crops of one photo, where the glance finds one
            /// and the scan another that scores more).
            public var glanceSureScore: Double

            /// Creates a first look of `probes` lists and `maximumCandidates` landmarks (each
            /// at least 1), sure from `sureScore` (clamped to 0…1), scanning every view at
            /// once below `scanBelow` (clamped to 0…`sureScore`) in an index of at most
            /// `scanBelowMaximumViews` views, with a glance of `glanceCandidates` landmarks (0:
            /// none) sure from `glanceSureScore` (clamped to `sureScore`…1; `nil`: `sureScore`).
            public init(probes: Int, maximumCandidates: Int, sureScore: Double, scanBelow: Double = 0, scanBelowMaximumViews: Int = .max,
                        glanceCandidates: Int = 0, glanceSureScore: Double? = nil) {
                self.probes = max(1, probes)
                self.maximumCandidates = max(1, maximumCandidates)
                self.sureScore = min(1, max(0, sureScore))
                self.scanBelow = min(self.sureScore, max(0, scanBelow))
                self.scanBelowMaximumViews = max(0, scanBelowMaximumViews)
                self.glanceCandidates = max(0, glanceCandidates)
                self.glanceSureScore = min(1, max(self.sureScore, glanceSureScore ?? self.sureScore))
            }

            /// The scan-below score for an index of `views` views: ``scanBelow`` up to
            /// ``scanBelowMaximumViews``, 0 (never) above. O(1).
            public func scanBelow(forViews views: Int) -> Double {
                views <= scanBelowMaximumViews ? scanBelow : 0
            }
        }

        /// These parameters for the first look itself: its probes and candidates, no first
        /// look of its own. O(1).
        var forFirstLook: SearchParameters? {
            guard let firstLook, unsureScores != nil else { return nil }
            var look = self
            look.probes = firstLook.probes
            look.maximumCandidates = firstLook.maximumCandidates
            look.entryBudget = nil
            look.firstLook = nil
            return look
        }

        /// Creates parameters; every one has the documented default.
        public init(probes: Int = 128, radius: Int = 48, maximumCandidates: Int = 1024, innerProbeFactor: Int = 4, entryBudget: Int? = nil,
                    unsureScores: Range<Double>? = SearchParameters.defaultUnsureScores,
                    firstLook: FirstLook? = SearchParameters.defaultFirstLook) {
            self.firstLook = firstLook
            self.entryBudget = entryBudget.map { max(1, $0) }
            self.unsureScores = unsureScores.map { max(0, $0.lowerBound) ..< max(0, $0.upperBound, $0.lowerBound) }
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
    ///   O(landmarks) for the cut.
    public func candidates(for query: Fingerprint, minimumViewQuality: Int, parameters: SearchParameters = SearchParameters(),
                           using isa: InstructionSet = .best) -> [Int32] {
        candidates(for: probeTable(for: query, minimumViewQuality: minimumViewQuality, using: isa), parameters: parameters, using: isa)
    }

    /// A query's informative views with their distance to every centroid and, per view, how
    /// many centroids sit at each distance: what choosing any number of lists needs, computed
    /// once per search for its first look and its whole first stage (a glance makes one of
    /// the upright frame alone first, and the search the whole table only when the glance is
    /// not sure: a table row is the same whichever table holds it).
    public struct ProbeTable: Sendable {
        /// The query views, in query order.
        public let codes: [QueryCode]
        /// Lists (centroids) of the first stage it was made for.
        let lists: Int
        /// Every view's distance (0…128) to every centroid, view after view.
        let distances: [UInt8]
        /// Per view, the number of centroids at each distance 0…128, view after view.
        let histograms: [UInt32]
    }

    /// The ``ProbeTable`` of `queryCodes`: their distances to every centroid (the SIMD kernel
    /// of `isa`) and each view's histogram of them.
    /// - Complexity: O(codes × lists).
    public func probeTable(for queryCodes: [QueryCode], using isa: InstructionSet = .best) -> ProbeTable {
        let centroidWords = section(layout.centroids, 2 * layout.lists, as: UInt64.self)
        let lists = layout.lists
        var distances = [UInt8](repeating: 0, count: queryCodes.count * lists)
        var histograms = [UInt32](repeating: 0, count: queryCodes.count * 129)
        distances.withUnsafeMutableBufferPointer { all in
            histograms.withUnsafeMutableBufferPointer { histograms in
                for (v, queryCode) in queryCodes.enumerated() {
                    CodeScan128.distances(low: queryCode.code.low, high: queryCode.code.high, to: centroidWords,
                                          into: UnsafeMutableBufferPointer(rebasing: all[v * lists ..< (v + 1) * lists]),
                                          histogram: UnsafeMutableBufferPointer(rebasing: histograms[129 * v ..< 129 * (v + 1)]), using: isa)
                }
            }
        }
        return ProbeTable(codes: queryCodes, lists: lists, distances: distances, histograms: histograms)
    }

    /// The ``ProbeTable`` of `query`'s views of at least `minimumViewQuality`.
    /// - Complexity: O(views × lists).
    public func probeTable(for query: Fingerprint, minimumViewQuality: Int, using isa: InstructionSet = .best) -> ProbeTable {
        probeTable(for: Self.queryCodes(of: query, minimumViewQuality: minimumViewQuality), using: isa)
    }

    /// The codes the first stage reads for `query`: its views of at least
    /// `minimumViewQuality`, in query order (the upright full frame first when it is one of
    /// them). O(views).
    public static func queryCodes(of query: Fingerprint, minimumViewQuality: Int) -> [QueryCode] {
        query.views.filter { $0.quality >= minimumViewQuality }
            .map { QueryCode(code: CandidateCode(pHash: $0.pHash, dHash: $0.dHash), isFullFrame: $0.region == .full) }
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
    /// - Complexity: O(codes × (lists + probes × list length)) code distances, plus
    ///   O(landmarks) for the cut.
    public func candidates(for queryCodes: [QueryCode], parameters: SearchParameters = SearchParameters(),
                           using isa: InstructionSet = .best) -> [Int32] {
        candidates(for: probeTable(for: queryCodes, using: isa), parameters: parameters, using: isa)
    }

    /// The landmarks the first stage proposes for the query views of `table`
    /// (``candidates(for:parameters:using:)-([QueryCode],_,_)``), reusing its centroid
    /// distances: one search's first look and whole first stage read the same table.
    ///
    /// `table` should come from this index's ``probeTable(for:using:)``; one made for a
    /// first stage of another number of lists is made again here.
    ///
    /// - Returns: landmark numbers of the visual index, ascending.
    /// - Complexity: O(codes × lists + probes × list length) code distances and table reads,
    ///   plus O(landmarks) for the cut.
    public func candidates(for table: ProbeTable, parameters: SearchParameters = SearchParameters(),
                           using isa: InstructionSet = .best) -> [Int32] {
        let table = table.lists == layout.lists ? table : probeTable(for: table.codes, using: isa)
        let queryCodes = table.codes, distances = table.distances
        let offsets = listOffsets, fullEnds = self.fullEnds
        let codeWords = section(layout.codes, 2 * layout.entries, as: UInt64.self), references = self.references
        let radius = parameters.radius
        // Each landmark's nearest entry distance (radius + 1: none yet) in a flat table, and
        // how many landmarks sit at each distance, both kept by the scan kernel: the hits are
        // many (a third of a million-crop catalog's landmarks at the default radius).
        var nearest = [UInt8](repeating: UInt8(radius + 1), count: layout.landmarks)
        var counts = [UInt32](repeating: 0, count: 129)
        let lists = layout.lists
        let probed = parameters.entryBudget.map { sharedProbes(queryCodes, distances: distances, budget: $0) }
            ?? perViewProbes(table, parameters: parameters, using: isa)
        // Lists in ascending order, each read once with every query view that probes it:
        // its full-frame head with all of them, the rest with the full-frame views only (the
        // others compare with full-frame entries only). Each entry counts at its nearest
        // query code, as one pass per view would leave the table. The (list, view) pairs
        // are grouped by list with a counting sort (views ascending in each).
        var pairStarts = [Int](repeating: 0, count: lists + 1)
        for chosen in probed { for l in chosen { pairStarts[l + 1] += 1 } }
        for l in 0..<lists { pairStarts[l + 1] += pairStarts[l] }
        var probingViews = [Int](repeating: 0, count: pairStarts[lists])
        var next = pairStarts
        for v in queryCodes.indices { for l in probed[v] { probingViews[next[l]] = v; next[l] += 1 } }
        var headWords: [UInt64] = [], tailWords: [UInt64] = []
        headWords.reserveCapacity(2 * queryCodes.count)
        tailWords.reserveCapacity(2 * queryCodes.count)
        nearest.withUnsafeMutableBufferPointer { table in
            counts.withUnsafeMutableBufferPointer { counts in
                func scan(_ words: [UInt64], _ range: Range<Int>) {
                    guard !words.isEmpty, !range.isEmpty else { return }
                    words.withUnsafeBufferPointer { queries in
                        _ = CodeScan128.nearest(queries: queries, radius: radius,
                                                codes: UnsafeBufferPointer(rebasing: codeWords[2 * range.lowerBound ..< 2 * range.upperBound]),
                                                references: UnsafeBufferPointer(rebasing: references[range]),
                                                ownerMask: ~CandidateIndexLayout.fullFrameBit, into: table, counts: counts, using: isa)
                    }
                }
                for l in 0..<lists where pairStarts[l] < pairStarts[l + 1] {
                    headWords.removeAll(keepingCapacity: true)
                    tailWords.removeAll(keepingCapacity: true)
                    for v in probingViews[pairStarts[l]..<pairStarts[l + 1]] {
                        let code = queryCodes[v].code
                        headWords.append(code.low)
                        headWords.append(code.high)
                        if queryCodes[v].isFullFrame {
                            tailWords.append(code.low)
                            tailWords.append(code.high)
                        }
                    }
                    scan(headWords, Int(offsets[l])..<Int(fullEnds[l]))
                    scan(tailWords, Int(fullEnds[l])..<Int(offsets[l + 1]))
                }
            }
        }
        // Ascending landmark numbers from one pass over the table; past the cap, the nearest
        // are kept: the counts give the cut, landmarks at the cut in number order.
        let touched = counts.reduce(0) { $0 + Int($1) }
        var cut = radius, atCut = Int.max
        if touched > parameters.maximumCandidates {
            var below = 0
            cut = 0
            while below + Int(counts[cut]) < parameters.maximumCandidates { below += Int(counts[cut]); cut += 1 }
            atCut = parameters.maximumCandidates - below
        }
        return nearest.withUnsafeBufferPointer { table in
            Self.entries(of: table, atMost: cut, atCut: atCut, count: min(touched, parameters.maximumCandidates), using: isa)
        }
    }

    /// Table entries compared per call when the candidates are cut from the table: the
    /// positions found fit a buffer of this many, reused.
    static let cutBlock = 4096

    /// The positions in `table` of its first `count` entries of at most `cut`, ascending,
    /// taking those equal to `cut` only while `atCut` of them last: the candidates cut from
    /// the table of nearest distances. Compared `block` entries a call with the SIMD byte
    /// compare of `isa` (``CodeScan128/positions(in:atMost:into:using:)``), into one
    /// reused buffer; the pass ends once `count` are found.
    ///
    /// - Complexity: O(table) byte compares (64 an instruction with AVX-512), O(count) more.
    static func entries(of table: UnsafeBufferPointer<UInt8>, atMost cut: Int, atCut: Int, count: Int, block: Int = cutBlock,
                        using isa: InstructionSet) -> [Int32] {
        var kept: [Int32] = []
        kept.reserveCapacity(count)
        var atCut = atCut
        var found = [UInt32](repeating: 0, count: block)
        found.withUnsafeMutableBufferPointer { found in
            var start = 0
            while start < table.count && kept.count < count {
                let end = min(start + block, table.count)
                let n = CodeScan128.positions(in: UnsafeBufferPointer(rebasing: table[start..<end]), atMost: UInt8(cut), into: found, using: isa)
                for i in 0..<n where kept.count < count {
                    let o = start + Int(found[i])
                    if Int(table[o]) < cut { kept.append(Int32(o)) } else if atCut > 0 { kept.append(Int32(o)); atCut -= 1 }
                }
                start = end
            }
        }
        return kept
    }
}
