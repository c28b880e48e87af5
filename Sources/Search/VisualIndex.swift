import Catalog
import Fingerprints

/// Every searchable view of a catalog in contiguous struct-of-arrays memory: the PDQ codes
/// as four word planes (word w of every view back to back, what the scan streams through),
/// pHashes, dHashes, 64-byte histograms, region numbers and the owning landmark, a compact
/// copy of the full-frame views' PDQ planes, landmark ids and collection membership. One
/// byte image (``VisualIndexLayout``) either built in memory from the catalog or
/// memory-mapped from a snapshot file (``VisualIndexSnapshot``); the two are identical byte
/// for byte. Immutable, so it is shared freely between concurrent queries.
///
/// Views with quality below ``minimumViewQuality`` (blank, uniform images) are left out,
/// so they can never match anything. Landmarks are numbered in id order and
/// their views are stored consecutively, so ties resolve by id without string compares.
///
/// Memory: 120 bytes per view (32 PDQ, 8 pHash, 8 dHash, 64 histogram, 4 owner, 4 region)
/// plus 36 bytes per full-frame view and the landmark ids: 1,000,000 views of the default
/// 31-view layout ≈ 122 MB (``bytesUsed``).
public struct VisualIndex: Sendable {
    /// The catalog state the index was built from.
    public let version: CatalogVersion
    /// Least PDQ quality of an indexed view (see ``SimilarityScoring/minimumViewQuality``);
    /// searches skip query views below it too.
    public let minimumViewQuality: Int

    let storage: VisualIndexStorage
    let layout: VisualIndexLayout
    /// The first stage built from this index, when there is one (see ``withFirstStage(_:)``).
    public private(set) var firstStage: CandidateIndex?

    /// Number of searchable views.
    public var viewCount: Int { layout.views }
    /// Number of full-frame views.
    public var fullViewCount: Int { layout.fullViews }
    /// Number of landmarks with at least one searchable view.
    public var landmarkCount: Int { layout.landmarks }
    /// Bytes of the index image (everything above: codes, ids, membership). O(1).
    public var bytesUsed: Int { layout.length }

    /// What tells this index's byte image apart from another of the same catalog generation
    /// (catalog id, quality threshold and section sizes, FNV-1a): what a ``CandidateIndex``
    /// file is bound to. O(catalog id).
    public var identity: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bitPattern: Int64(minimumViewQuality))
        for byte in version.catalogID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for value in [layout.views, layout.fullViews, layout.landmarks, layout.regions, layout.collections, layout.memberships,
                      layout.landmarkIDBytes, layout.collectionIDBytes, layout.length] {
            hash = (hash ^ UInt64(value)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// This index with `firstStage` as its first stage, or `nil` when `firstStage` was built
    /// from another index (``CandidateIndex/belongs(to:)``). O(1).
    public func withFirstStage(_ firstStage: CandidateIndex) -> VisualIndex? {
        guard firstStage.belongs(to: self) else { return nil }
        var copy = self
        copy.firstStage = firstStage
        return copy
    }

    /// Landmarks with at least one searchable view, sorted by id; a view's owner is an
    /// index into this array. O(landmarks): prefer ``landmarkID(_:)``.
    public var landmarkIDs: [String] { (0..<layout.landmarks).map(landmarkID) }

    // MARK: sections
    // A mapped snapshot's PDQ planes, pHashes, dHashes and histograms are checked block by
    // block as a search reaches them (``VisualIndexStorage/check(_:)``): read them only there.

    @inline(__always) func section<T>(_ offset: Int, _ count: Int, as type: T.Type) -> UnsafeBufferPointer<T> {
        UnsafeBufferPointer(start: (storage.base + offset).assumingMemoryBound(to: T.self), count: count)
    }
    /// PDQ word planes: word w of view i at `pdqPlanes[w * viewCount + i]`.
    var pdqPlanes: UnsafeBufferPointer<UInt64> { section(layout.pdqPlanes, 4 * layout.views, as: UInt64.self) }
    /// PDQ word planes of the full-frame views (stride ``fullViewCount``).
    var fullPDQPlanes: UnsafeBufferPointer<UInt64> { section(layout.fullPDQPlanes, 4 * layout.fullViews, as: UInt64.self) }
    /// For each full-frame view, its view number.
    var fullViews: UnsafeBufferPointer<Int32> { section(layout.fullViewNumbers, layout.fullViews, as: Int32.self) }
    var pHashes: UnsafeBufferPointer<UInt64> { section(layout.pHashes, layout.views, as: UInt64.self) }
    var dHashes: UnsafeBufferPointer<UInt64> { section(layout.dHashes, layout.views, as: UInt64.self) }
    var histograms: UnsafeBufferPointer<UInt8> { section(layout.histograms, 64 * layout.views, as: UInt8.self) }
    var owners: UnsafeBufferPointer<Int32> { section(layout.owners, layout.views, as: Int32.self) }
    var regionNumbers: UnsafeBufferPointer<UInt32> { section(layout.regionNumbers, layout.views, as: UInt32.self) }

    /// The region of view `i`. O(1).
    func region(ofView i: Int) -> ViewRegion {
        let table = section(layout.regionTable, 4 * layout.regions, as: Float.self)
        let r = 4 * Int(regionNumbers[i])
        return ViewRegion(x: table[r], y: table[r + 1], width: table[r + 2], height: table[r + 3])
    }

    /// The id of landmark number `owner`. O(id length).
    public func landmarkID(_ owner: Int) -> String {
        let offsets = section(layout.landmarkIDOffsets, layout.landmarks + 1, as: UInt32.self)
        let bytes = section(layout.landmarkIDData, layout.landmarkIDBytes, as: UInt8.self)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(offsets[owner])..<Int(offsets[owner + 1])]), as: UTF8.self)
    }

    /// The number of the landmark with this id, or `nil`. O(log landmarks) string compares.
    public func landmarkNumber(of id: String) -> Int? {
        var low = 0, high = layout.landmarks
        while low < high {
            let mid = (low + high) / 2
            let probe = landmarkID(mid)
            if probe == id { return mid }
            if probe < id { low = mid + 1 } else { high = mid }
        }
        return nil
    }

    /// How many indexed reference images (fingerprints, informative or not) carry each
    /// fingerprint layout version (``Fingerprint/layoutVersion``). O(distinct versions).
    public var fingerprintLayoutVersions: [UInt16: Int] {
        let table = section(layout.layoutVersionTable, 2 * layout.layoutVersions, as: UInt32.self)
        var out: [UInt16: Int] = [:]
        for k in 0..<layout.layoutVersions { out[UInt16(truncatingIfNeeded: table[2 * k]), default: 0] += Int(table[2 * k + 1]) }
        return out
    }

    /// The ids of the live collections holding landmark number `owner`, sorted by id. O(result).
    public func collectionIDs(ofLandmark owner: Int) -> [String] {
        let offsets = section(layout.membershipOffsets, layout.landmarks + 1, as: UInt32.self)
        let members = section(layout.membershipData, layout.memberships, as: UInt32.self)
        let idOffsets = section(layout.collectionIDOffsets, layout.collections + 1, as: UInt32.self)
        let idBytes = section(layout.collectionIDData, layout.collectionIDBytes, as: UInt8.self)
        return (Int(offsets[owner])..<Int(offsets[owner + 1])).map { k in
            let c = Int(members[k])
            return String(decoding: UnsafeBufferPointer(rebasing: idBytes[Int(idOffsets[c])..<Int(idOffsets[c + 1])]), as: UTF8.self)
        }
    }

    /// Landmark id → ids of the live collections holding it, for the given landmarks only
    /// (unknown ids are left out). O(ids × log landmarks).
    public func collectionsByLandmark(for ids: some Sequence<String>) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for id in ids where out[id] == nil {
            if let owner = landmarkNumber(of: id) { out[id] = collectionIDs(ofLandmark: owner) }
        }
        return out
    }

    // MARK: building

    /// Builds the index from a store snapshot. O(views).
    public init(snapshot: FingerprintSnapshot, minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) {
        self.init(version: snapshot.version, entries: snapshot.entries, minimumViewQuality: minimumViewQuality)
    }

    /// Builds the index from (landmark id, fingerprints) entries, in any order. Entries
    /// with the same id are merged. `collections` (live collections with their live members)
    /// gives each landmark's membership. O(views + landmarks log landmarks).
    public init(version: CatalogVersion, entries: [FingerprintSnapshot.Entry], collections: [CollectionEntity] = [],
                minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) {
        let sorted = entries.enumerated().sorted { ($0.element.landmarkID, $0.offset) < ($1.element.landmarkID, $1.offset) }.map(\.element)
        var builder = VisualIndexBuilder(minimumViewQuality: minimumViewQuality)
        for entry in sorted { builder.count(entry) }
        let plan = builder.plan(collections: collections)
        let layout = plan.layout
        let storage = VisualIndexStorage(allocating: layout.length)
        let base = storage.mutableBase
        func fill<T>(_ offset: Int, _ count: Int, as type: T.Type) -> UnsafeMutablePointer<T> {
            (base + offset).bindMemory(to: T.self, capacity: count)
        }
        let rows = VisualIndexBuilder.ViewRows(
            pdq: fill(layout.pdqPlanes, 4 * layout.views, as: UInt64.self), pdqStride: layout.views,
            fullPDQ: fill(layout.fullPDQPlanes, 4 * layout.fullViews, as: UInt64.self), fullStride: layout.fullViews,
            fullNumbers: fill(layout.fullViewNumbers, layout.fullViews, as: Int32.self),
            pHash: fill(layout.pHashes, layout.views, as: UInt64.self), dHash: fill(layout.dHashes, layout.views, as: UInt64.self),
            histogram: fill(layout.histograms, 64 * layout.views, as: UInt8.self),
            owner: fill(layout.owners, layout.views, as: Int32.self), region: fill(layout.regionNumbers, layout.views, as: UInt32.self),
            firstView: 0, firstFullView: 0, capacity: layout.views, fullCapacity: layout.fullViews)
        var cursor = VisualIndexBuilder.Cursor()
        for entry in sorted { plan.fill(entry, at: &cursor, into: rows) }
        plan.writeTail(version: version) { offset, _ in base + offset }
        self.init(version: version, minimumViewQuality: minimumViewQuality, storage: storage, layout: layout)
    }

    /// Wraps an image already checked (built above, or a validated snapshot).
    init(version: CatalogVersion, minimumViewQuality: Int, storage: VisualIndexStorage, layout: VisualIndexLayout) {
        self.version = version
        self.minimumViewQuality = minimumViewQuality
        self.storage = storage
        self.layout = layout
    }
}

/// The immutable bytes of a ``VisualIndex``: a zero-filled, 64-byte-aligned heap block or a
/// read-only memory map of a snapshot file, released with the last index using it. A mapped
/// image carries the ``VerifiedBlocks`` that its readers check blocks with before first use.
final class VisualIndexStorage: @unchecked Sendable {
    /// Start of the image (64-byte aligned).
    let base: UnsafeRawPointer
    /// Bytes.
    let count: Int
    /// What checks a mapped snapshot's blocks, or `nil` for an image built in memory
    /// (trusted, never checked).
    let checker: Checker?
    private let release: @Sendable (UnsafeMutableRawPointer, Int) -> Void

    /// A zero-filled heap block of `count` bytes.
    init(allocating count: Int) {
        let block = UnsafeMutableRawPointer.allocate(byteCount: max(count, 64), alignment: 64)
        block.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 64))
        base = UnsafeRawPointer(block)
        self.count = count
        checker = nil
        release = { pointer, _ in pointer.deallocate() }
    }

    /// Adopts memory that `release` frees (a mapping of the snapshot at `path`), whose body
    /// (bytes `bodyStart` ..< `count`) is checked block by block with `blocks`.
    init(adopting base: UnsafeRawPointer, count: Int, blocks: VerifiedBlocks, bodyStart: Int, path: String,
         release: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Void) {
        self.base = base
        self.count = count
        checker = Checker(blocks: blocks, bodyStart: bodyStart, path: path)
        self.release = release
    }

    /// Adopts memory that `release` frees, checked whole by its owner before (a mapped
    /// ``CandidateIndex`` file): never checked again.
    init(adoptingChecked base: UnsafeRawPointer, count: Int, release: @escaping @Sendable (UnsafeMutableRawPointer, Int) -> Void) {
        self.base = base
        self.count = count
        checker = nil
        self.release = release
    }

    /// Writable view, only while building (before the index is shared).
    var mutableBase: UnsafeMutableRawPointer { UnsafeMutableRawPointer(mutating: base) }

    /// Checks the bytes at offsets `range` of the image before they are read (a no-op for an
    /// image built in memory). A loop checking many ranges takes ``checker`` once instead.
    ///
    /// - Throws: ``VisualIndexDamage`` naming the first block that does not match.
    /// - Complexity: O(1) per block already checked, O(block) per block checked now.
    func check(_ range: Range<Int>) throws(VisualIndexDamage) {
        try checker?.check(range)
    }

    /// Whether reads need ``check(_:)`` (a mapped snapshot). O(1).
    var isChecked: Bool { checker != nil }

    /// The block checks of a mapped image, by image offsets.
    struct Checker {
        let blocks: VerifiedBlocks
        let bodyStart: Int
        let path: String

        /// ``VisualIndexStorage/check(_:)``. O(1) per block already checked.
        @inline(__always)
        func check(_ range: Range<Int>) throws(VisualIndexDamage) {
            if let bad = blocks.firstDamage(in: (range.lowerBound - bodyStart)..<(range.upperBound - bodyStart)) {
                throw VisualIndexDamage(path: path, offset: bodyStart + bad)
            }
        }
    }

    deinit { release(UnsafeMutableRawPointer(mutating: base), count) }
}
