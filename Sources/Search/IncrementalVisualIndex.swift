import Catalog
import Fingerprints

/// A visual index kept up to date by applying a catalog's changes instead of rebuilding it:
/// an immutable base ``VisualIndex`` (built at some generation), the set of landmarks
/// changed since then (masked out of the base), a small delta ``VisualIndex`` of the changed
/// landmarks that are live now, and the current state of the collections changed since
/// then (overriding the base's membership). What a `glimpse serve` replica serves: one
/// changed landmark in a catalog of a million views costs a small read and a delta build
/// of that landmark's views, not a rebuild.
///
/// Searches scan the delta and the base and merge. Scores are absolute (they do not depend
/// on the rest of the catalog), each landmark lives in exactly one of the two, and both
/// break ties by landmark id, so the merged top-k is exactly a full rebuild's answer, in
/// the same order (tested against a rebuild, ties included).
///
/// The delta grows with every change since the base; ``needsCompaction`` says when a new
/// base should be built (off the request path) and the changes since its generation
/// applied to it. Immutable, so it is shared freely between concurrent queries; applying
/// changes returns a new value that shares the base.
public struct IncrementalVisualIndex: Sendable {
    /// The index built from a whole catalog at ``baseGeneration``.
    public let base: VisualIndex
    /// The changed landmarks (since the base) that are live now and have informative views.
    public let delta: VisualIndex
    /// The catalog state this index answers for.
    public let version: CatalogVersion

    /// Every landmark changed since the base (added, changed, removed or restored): never
    /// answered from the base.
    let changedLandmarks: Set<String>
    /// The current fingerprints of the changed landmarks that are live now.
    let deltaEntries: [String: FingerprintSnapshot.Entry]
    /// The current live collections of each changed landmark (sorted ids).
    let deltaMembership: [String: [String]]
    /// Every collection changed since the base: its current live members, `nil` when it is
    /// no longer live. Overrides the base's membership for that collection.
    let changedCollections: [String: Set<String>?]
    /// Landmark id → live changed collections holding it (derived from ``changedCollections``).
    let overlayMembership: [String: [String]]
    /// Views of the base that belong to changed landmarks (not searched).
    let maskedBaseViews: Int
    /// Base landmarks among the changed ones.
    let maskedBaseLandmarks: Int
    /// Layout-version counts of the masked base landmarks' fingerprints are not known
    /// through the base's API; those of the delta are added (see ``fingerprintLayoutVersions``).
    let deltaLayoutVersions: [UInt16: Int]

    /// An index equal to `base` (nothing changed yet). O(1).
    public init(base: VisualIndex) {
        self.base = base
        self.delta = VisualIndex(version: base.version, entries: [], minimumViewQuality: base.minimumViewQuality)
        self.version = base.version
        changedLandmarks = []
        deltaEntries = [:]
        deltaMembership = [:]
        changedCollections = [:]
        overlayMembership = [:]
        maskedBaseViews = 0
        maskedBaseLandmarks = 0
        deltaLayoutVersions = [:]
    }

    private init(base: VisualIndex, delta: VisualIndex, version: CatalogVersion, changedLandmarks: Set<String>,
                 deltaEntries: [String: FingerprintSnapshot.Entry], deltaMembership: [String: [String]],
                 changedCollections: [String: Set<String>?], maskedBaseViews: Int, maskedBaseLandmarks: Int) {
        self.base = base
        self.delta = delta
        self.version = version
        self.changedLandmarks = changedLandmarks
        self.deltaEntries = deltaEntries
        self.deltaMembership = deltaMembership
        self.changedCollections = changedCollections
        var overlay: [String: [String]] = [:]
        for (collection, members) in changedCollections {
            for member in members ?? [] { overlay[member, default: []].append(collection) }
        }
        overlayMembership = overlay
        self.maskedBaseViews = maskedBaseViews
        self.maskedBaseLandmarks = maskedBaseLandmarks
        deltaLayoutVersions = delta.fingerprintLayoutVersions
    }

    // MARK: what it holds

    /// The generation of the catalog the base was built from.
    public var baseGeneration: Int64 { base.version.generation }
    /// Least PDQ quality of an indexed view (the base's).
    public var minimumViewQuality: Int { base.minimumViewQuality }
    /// Number of searchable views (base views of unchanged landmarks plus the delta's). O(1).
    public var viewCount: Int { base.viewCount - maskedBaseViews + delta.viewCount }
    /// Number of landmarks with at least one searchable view. O(1).
    public var landmarkCount: Int { base.landmarkCount - maskedBaseLandmarks + delta.landmarkCount }
    /// Number of landmarks changed since the base. O(1).
    public var changedLandmarkCount: Int { changedLandmarks.count }
    /// Bytes of the two index images. O(1).
    public var bytesUsed: Int { base.bytesUsed + delta.bytesUsed }

    /// Whether the delta has grown enough that a new base should be built: more than
    /// `max(minimumViews, base views / 16)` delta views or changed landmarks' worth of
    /// masked views. Then build a ``VisualIndex`` from the store off the request path and
    /// apply the changes since its generation. O(1).
    public func needsCompaction(minimumViews: Int = 65_536) -> Bool {
        max(delta.viewCount, maskedBaseViews) > max(minimumViews, base.viewCount / 16)
    }

    /// How many indexed reference images carry each fingerprint layout version: the base's
    /// counts plus the delta's (a changed landmark's old images are still counted in the
    /// base's until compaction: an upper bound on outdated fingerprints). O(distinct versions).
    public var fingerprintLayoutVersions: [UInt16: Int] {
        base.fingerprintLayoutVersions.merging(deltaLayoutVersions, uniquingKeysWith: +)
    }

    // MARK: applying changes

    /// This index brought to `changes.version`: the changed landmarks masked out of the
    /// base, the delta rebuilt from the changed landmarks' current fingerprints, and the
    /// changed collections' current members.
    ///
    /// - Parameters:
    ///   - changes: what changed since ``version`` (``EntityStore/changes(since:)``), which
    ///     must be complete and start at this index's generation.
    ///   - collections: the live collections among `changes.collectionIDs` (absent ones
    ///     are no longer live).
    ///   - membership: each live landmark of `changes.fingerprints` → the ids of the live
    ///     collections holding it (a missing landmark belongs to none).
    /// - Returns: `nil` when `changes` cannot be applied (incomplete, another catalog, or
    ///   not starting at this index's generation): rebuild from the store instead.
    /// - Complexity: O(delta views + changed collections' members), plus one pass over the
    ///   base's views when landmarks of the base change.
    public func applying(_ changes: CatalogChanges, collections: [CollectionEntity], membership: [String: [String]]) -> IncrementalVisualIndex? {
        guard changes.isComplete, changes.version.catalogID == version.catalogID, changes.sinceGeneration == version.generation else {
            return nil
        }
        if changes.landmarkIDs.isEmpty && changes.collectionIDs.isEmpty {
            if changes.version == version { return self }
        }
        var deltaEntries = self.deltaEntries
        var deltaMembership = self.deltaMembership
        var changedCollections = self.changedCollections
        let live = Dictionary(changes.fingerprints.map { ($0.landmarkID, $0) }, uniquingKeysWith: { a, _ in a })
        for id in changes.landmarkIDs {
            deltaEntries[id] = live[id]
            deltaMembership[id] = live[id] == nil ? nil : (membership[id] ?? []).sorted()
        }
        let liveCollections = Dictionary(collections.map { ($0.id, Set($0.landmarkIDs)) }, uniquingKeysWith: { a, _ in a })
        for id in changes.collectionIDs {
            let members = liveCollections[id]
            changedCollections[id] = .some(members)
            // Landmarks changed earlier keep their membership as read then, except for this collection.
            for (landmark, list) in deltaMembership where !changes.landmarkIDs.contains(landmark) {
                var updated = list.filter { $0 != id }
                if members?.contains(landmark) == true { updated.append(id); updated.sort() }
                deltaMembership[landmark] = updated
            }
        }
        var changedLandmarks = self.changedLandmarks
        var newlyMasked = Set<Int>()
        for id in changes.landmarkIDs where changedLandmarks.insert(id).inserted {
            if let number = base.landmarkNumber(of: id) { newlyMasked.insert(number) }
        }
        let delta = VisualIndex(version: changes.version, entries: Array(deltaEntries.values), minimumViewQuality: base.minimumViewQuality)
        return IncrementalVisualIndex(
            base: base, delta: delta, version: changes.version, changedLandmarks: changedLandmarks, deltaEntries: deltaEntries,
            deltaMembership: deltaMembership, changedCollections: changedCollections,
            maskedBaseViews: maskedBaseViews + (newlyMasked.isEmpty ? 0 : base.viewCount(ofLandmarks: newlyMasked)),
            maskedBaseLandmarks: maskedBaseLandmarks + newlyMasked.count)
    }

    /// Whether the base is memory-mapped from a snapshot (read blocks are checked as a
    /// search reaches them) rather than built in memory. O(1).
    var isMappedSnapshot: Bool { base.storage.isChecked }

    // MARK: searching

    /// The same search as ``VisualIndex/search(_:scoring:minimumScore:deadline:limit:threads:using:strategy:)``
    /// over the current catalog: the delta and the base (without its changed landmarks)
    /// are scanned and their matches merged by score, ties by landmark id, so the answer
    /// equals that of an index rebuilt from the catalog. The base's first stage, when it has
    /// one, serves the base; the delta (images changed since the base) is always scanned
    /// whole, so added images are found before the next compaction. The delta is scanned first (it is
    /// small); the deadline then applies to the base's scan.
    ///
    /// - Throws: ``VisualIndexDamage`` when the base is a mapped snapshot found damaged.
    /// - Complexity: the base's scan plus the delta's, plus O(matches log matches).
    public func search(
        _ query: Fingerprint, scoring: SimilarityScoring = .default, minimumScore: Double,
        deadline: ContinuousClock.Instant? = nil, limit: Int = .max, threads: Int = 1, using isa: InstructionSet = .best,
        strategy: ScanStrategy = .default
    ) throws(VisualIndexDamage) -> IndexSearchOutcome {
        let fromDelta = try delta.search(query, scoring: scoring, minimumScore: minimumScore, limit: limit, threads: threads, using: isa)
        guard !changedLandmarks.isEmpty else {
            // Nothing masked (the delta is empty too): the base's answer as is.
            return try base.search(query, scoring: scoring, minimumScore: minimumScore, deadline: deadline, limit: limit, threads: threads, using: isa,
                                   strategy: strategy)
        }
        // Masked landmarks can take at most maskedBaseLandmarks of the base's best places.
        let (baseLimit, overflow) = limit.addingReportingOverflow(maskedBaseLandmarks)
        let fromBase = try base.search(query, scoring: scoring, minimumScore: minimumScore, deadline: deadline,
                                   limit: overflow ? .max : baseLimit, threads: threads, using: isa, strategy: strategy)
        var matches = fromBase.matches.filter { !changedLandmarks.contains($0.landmarkID) }
        matches.append(contentsOf: fromDelta.matches)
        matches.sort { ($0.score, $1.landmarkID) > ($1.score, $0.landmarkID) }
        if matches.count > limit { matches.removeSubrange(limit...) }
        return IndexSearchOutcome(
            matches: matches, isPartial: fromBase.isPartial || fromDelta.isPartial,
            comparedPairs: fromBase.comparedPairs + fromDelta.comparedPairs,
            queryIsInformative: fromBase.queryIsInformative || fromDelta.queryIsInformative,
            scannedEveryView: fromBase.scannedEveryView, firstStageBest: fromBase.firstStageBest)
    }

    /// The ids of the live collections holding the landmark with this id, sorted; empty
    /// for an unknown landmark. O(log landmarks + its collections).
    public func collectionIDs(ofLandmark id: String) -> [String] {
        if changedLandmarks.contains(id) { return deltaMembership[id] ?? [] }
        var ids: [String] = []
        if let number = base.landmarkNumber(of: id) {
            ids = base.collectionIDs(ofLandmark: number).filter { changedCollections[$0] == nil }
        }
        if let added = overlayMembership[id] { ids.append(contentsOf: added); ids.sort() }
        return ids
    }

    /// Landmark id → ids of the live collections holding it, for the given landmarks only
    /// (landmarks not in the index are left out), as ``VisualIndex/collectionsByLandmark(for:)``.
    /// O(ids × log landmarks).
    public func collectionsByLandmark(for ids: some Sequence<String>) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for id in ids where out[id] == nil && contains(landmark: id) { out[id] = collectionIDs(ofLandmark: id) }
        return out
    }

    /// Whether the landmark has searchable views in the current catalog. O(log landmarks).
    public func contains(landmark id: String) -> Bool {
        if changedLandmarks.contains(id) { return delta.landmarkNumber(of: id) != nil }
        return base.landmarkNumber(of: id) != nil
    }
}

extension VisualIndex {
    /// Number of views owned by the landmarks numbered `landmarks`. O(views).
    func viewCount(ofLandmarks landmarks: Set<Int>) -> Int {
        var marked = [Bool](repeating: false, count: landmarkCount)
        for n in landmarks where n >= 0 && n < landmarkCount { marked[n] = true }
        var count = 0
        for owner in owners where marked[Int(owner)] { count += 1 }
        return count
    }
}
