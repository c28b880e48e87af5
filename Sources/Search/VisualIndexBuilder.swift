import Catalog
import Fingerprints

/// The one definition of how catalog fingerprints become a ``VisualIndex`` byte image
/// (``VisualIndexLayout``), in two passes over the same entries in landmark-id order:
///
/// 1. ``count(_:)`` each entry: the views kept (quality at least the minimum), the full-frame
///    views, the landmark ids, the distinct regions and the fingerprint layout versions;
///    then ``plan(collections:)`` fixes the layout and each landmark's memberships.
/// 2. ``Plan/fill(_:into:)`` each entry again, in the same order: every kept view's row of
///    the view sections (PDQ planes, full-frame planes and numbers, pHash, dHash, histogram,
///    owner, region number), through a ``ViewRows`` window that is either the whole image in
///    memory or a bounded chunk the streamed snapshot writes out as it fills
///    (``VisualIndexSnapshot/rewrite(store:path:minimumViewQuality:)``); then
///    ``Plan/writeTail(at:)`` writes the small sections and the header.
///
/// Built in memory or streamed to a file, the bytes are the same.
struct VisualIndexBuilder {
    let minimumViewQuality: Int
    private(set) var views = 0, fullViews = 0
    private(set) var ids: [String] = []
    /// The most views one entry keeps (what a streamed chunk must hold at least).
    private(set) var largestEntry = 0
    /// Whether every entry came in strictly increasing id order (as the in-memory build
    /// sorts them); a stream whose store orders ids otherwise is not written streamed.
    private(set) var inIDOrder = true
    private var lastEntryID: String?
    private var regionNumbers: [ViewRegion: UInt32] = [:]
    private var regionList: [ViewRegion] = []
    private var layoutVersions: [UInt16: Int] = [:]

    init(minimumViewQuality: Int) {
        self.minimumViewQuality = minimumViewQuality
    }

    /// Pass 1: counts one landmark's fingerprints. Entries come in increasing id order; a
    /// repeated id continues the landmark before it (``inIDOrder`` then turns false, which
    /// only the streamed writer cares about). O(views of the entry).
    mutating func count(_ entry: FingerprintSnapshot.Entry) {
        if let last = lastEntryID, !(last < entry.landmarkID) { inIDOrder = false }
        lastEntryID = entry.landmarkID
        let before = views
        defer { largestEntry = max(largestEntry, views - before) }
        for fingerprint in entry.fingerprints {
            layoutVersions[fingerprint.layoutVersion, default: 0] += 1
            for view in fingerprint.views where view.quality >= minimumViewQuality {
                if ids.last != entry.landmarkID { ids.append(entry.landmarkID) }
                views += 1
                if view.region == .full { fullViews += 1 }
                if regionNumbers[view.region] == nil {
                    regionNumbers[view.region] = UInt32(regionList.count)
                    regionList.append(view.region)
                }
            }
        }
    }

    /// The layout and everything pass 2 needs, for `collections` (live collections with
    /// their live members). O(landmarks + memberships).
    func plan(collections: [CollectionEntity]) -> Plan {
        let liveCollections = collections.sorted { $0.id < $1.id }
        var ownerOf: [String: Int] = [:]
        for (k, id) in ids.enumerated() { ownerOf[id] = k }
        var membership = [[UInt32]](repeating: [], count: ids.count)
        for (c, collection) in liveCollections.enumerated() {
            for member in Set(collection.landmarkIDs) { if let owner = ownerOf[member] { membership[owner].append(UInt32(c)) } }
        }
        let memberships = membership.reduce(0) { $0 + $1.count }
        let layout = VisualIndexLayout(
            views: views, fullViews: fullViews, landmarks: ids.count, regions: regionList.count, collections: liveCollections.count,
            memberships: memberships, landmarkIDBytes: ids.reduce(0) { $0 + $1.utf8.count },
            collectionIDBytes: liveCollections.reduce(0) { $0 + $1.id.utf8.count }, layoutVersions: layoutVersions.count)
        return Plan(layout: layout, minimumViewQuality: minimumViewQuality, ids: ids, regionNumbers: regionNumbers,
                    regionList: regionList, collectionIDs: liveCollections.map(\.id), membership: membership,
                    layoutVersions: layoutVersions.sorted { $0.key < $1.key })
    }

    /// Where pass 2 writes view rows: for each view section, a pointer to the row of view
    /// ``firstView`` (full-frame rows: of full view ``firstFullView``) and, for the PDQ word
    /// planes, the distance in words between planes. The whole image in memory has
    /// `firstView` 0 and the strides of the layout; a streamed chunk holds ``capacity`` views.
    struct ViewRows {
        var pdq: UnsafeMutablePointer<UInt64>, pdqStride: Int
        var fullPDQ: UnsafeMutablePointer<UInt64>, fullStride: Int
        var fullNumbers: UnsafeMutablePointer<Int32>
        var pHash: UnsafeMutablePointer<UInt64>, dHash: UnsafeMutablePointer<UInt64>
        var histogram: UnsafeMutablePointer<UInt8>
        var owner: UnsafeMutablePointer<Int32>, region: UnsafeMutablePointer<UInt32>
        /// The first view (and full-frame view) these pointers address, and how many views
        /// (full-frame views) fit from there.
        var firstView: Int, firstFullView: Int, capacity: Int, fullCapacity: Int
    }

    /// Pass 2's position: the next view, full-frame view and landmark numbers.
    struct Cursor {
        var view = 0, fullView = 0, landmark = -1
        var lastID: String?
    }

    /// The layout and the tables of one index, fixed after pass 1.
    struct Plan {
        let layout: VisualIndexLayout
        let minimumViewQuality: Int
        let ids: [String]
        let regionNumbers: [ViewRegion: UInt32]
        let regionList: [ViewRegion]
        let collectionIDs: [String]
        let membership: [[UInt32]]
        let layoutVersions: [(key: UInt16, value: Int)]

        /// The number of views and full-frame views `entry` adds (what a chunk must hold). O(views of the entry).
        func rowsNeeded(by entry: FingerprintSnapshot.Entry) -> (views: Int, fullViews: Int) {
            var n = 0, f = 0
            for fingerprint in entry.fingerprints {
                for view in fingerprint.views where view.quality >= minimumViewQuality {
                    n += 1
                    if view.region == .full { f += 1 }
                }
            }
            return (n, f)
        }

        /// Pass 2: writes the rows of one entry's kept views at `cursor` into `rows`, which
        /// must hold them. O(views of the entry).
        func fill(_ entry: FingerprintSnapshot.Entry, at cursor: inout Cursor, into rows: ViewRows) {
            for fingerprint in entry.fingerprints {
                for view in fingerprint.views where view.quality >= minimumViewQuality {
                    if cursor.lastID != entry.landmarkID { cursor.landmark += 1; cursor.lastID = entry.landmarkID }
                    let i = cursor.view - rows.firstView
                    precondition(i >= 0 && i < rows.capacity, "view row outside the window")
                    for w in 0..<4 { rows.pdq[w * rows.pdqStride + i] = view.pdq.words[w] }
                    rows.pHash[i] = view.pHash
                    rows.dHash[i] = view.dHash
                    withUnsafeBytes(of: view.histogram.packed) { packed in
                        if let bytes = packed.baseAddress {
                            UnsafeMutableRawPointer(rows.histogram + 64 * i).copyMemory(from: bytes, byteCount: 64)
                        }
                    }
                    rows.owner[i] = Int32(cursor.landmark)
                    rows.region[i] = regionNumbers[view.region] ?? 0
                    if view.region == .full {
                        let f = cursor.fullView - rows.firstFullView
                        precondition(f >= 0 && f < rows.fullCapacity, "full-frame row outside the window")
                        for w in 0..<4 { rows.fullPDQ[w * rows.fullStride + f] = view.pdq.words[w] }
                        rows.fullNumbers[f] = Int32(cursor.view)
                        cursor.fullView += 1
                    }
                    cursor.view += 1
                }
            }
        }

        /// Writes the sections after the view sections (region table, landmark and
        /// collection ids, memberships, layout versions) and the header but for its
        /// checksum and block table. `at(offset, count)` gives where the `count` bytes at
        /// `offset` of the image are to be written: the image itself, or buffers standing
        /// for bytes 0 ..< ``VisualIndexLayout/headerSize`` and ``VisualIndexLayout/regionTable`` ..< length.
        /// O(landmarks + collections + memberships).
        func writeTail(version: CatalogVersion, at: (_ offset: Int, _ count: Int) -> UnsafeMutableRawPointer) {
            func fill<T>(_ offset: Int, _ count: Int, as type: T.Type) -> UnsafeMutablePointer<T> {
                at(offset, count * MemoryLayout<T>.stride).bindMemory(to: T.self, capacity: count)
            }
            let table = fill(layout.regionTable, 4 * regionList.count, as: Float.self)
            for (k, r) in regionList.enumerated() {
                table[4 * k] = r.x; table[4 * k + 1] = r.y; table[4 * k + 2] = r.width; table[4 * k + 3] = r.height
            }
            Self.writeStrings(ids, offsets: fill(layout.landmarkIDOffsets, ids.count + 1, as: UInt32.self),
                              bytes: fill(layout.landmarkIDData, layout.landmarkIDBytes, as: UInt8.self))
            Self.writeStrings(collectionIDs, offsets: fill(layout.collectionIDOffsets, collectionIDs.count + 1, as: UInt32.self),
                              bytes: fill(layout.collectionIDData, layout.collectionIDBytes, as: UInt8.self))
            let memberOffsets = fill(layout.membershipOffsets, ids.count + 1, as: UInt32.self)
            let members = fill(layout.membershipData, layout.memberships, as: UInt32.self)
            var m = 0
            for (k, list) in membership.enumerated() {
                memberOffsets[k] = UInt32(m)
                for c in list.sorted() { members[m] = c; m += 1 }
            }
            memberOffsets[ids.count] = UInt32(m)
            let versionTable = fill(layout.layoutVersionTable, 2 * layoutVersions.count, as: UInt32.self)
            for (k, entry) in layoutVersions.enumerated() {
                versionTable[2 * k] = UInt32(entry.key)
                versionTable[2 * k + 1] = UInt32(clamping: entry.value)
            }
            // Header (the checksum and the block table are written with the snapshot).
            let header = at(0, VisualIndexLayout.headerSize)
            header.storeBytes(of: VisualIndexLayout.magic.littleEndian, toByteOffset: 0, as: UInt64.self)
            header.storeBytes(of: VisualIndexLayout.formatVersion.littleEndian, toByteOffset: 8, as: UInt32.self)
            header.storeBytes(of: UInt32(Fingerprint.serializationVersion).littleEndian, toByteOffset: 12, as: UInt32.self)
            header.storeBytes(of: version.generation.littleEndian, toByteOffset: 32, as: Int64.self)
            header.storeBytes(of: Int32(clamping: minimumViewQuality).littleEndian, toByteOffset: 40, as: Int32.self)
            let catalogID = Array(version.catalogID.utf8.prefix(VisualIndexLayout.maximumCatalogIDLength))
            header.storeBytes(of: UInt32(catalogID.count).littleEndian, toByteOffset: 44, as: UInt32.self)
            for (k, byte) in catalogID.enumerated() { header.storeBytes(of: byte, toByteOffset: 48 + k, as: UInt8.self) }
            layout.writeCounts(to: header)
        }

        private static func writeStrings(_ strings: [String], offsets: UnsafeMutablePointer<UInt32>, bytes: UnsafeMutablePointer<UInt8>) {
            var position = 0
            for (k, string) in strings.enumerated() {
                offsets[k] = UInt32(position)
                for byte in string.utf8 { bytes[position] = byte; position += 1 }
            }
            offsets[strings.count] = UInt32(position)
        }
    }
}
