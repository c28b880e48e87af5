import Fingerprints

/// The byte image of a ``VisualIndex``: a fixed header, a table of block checksums, then
/// struct-of-arrays sections, each starting on a 64-byte boundary (the full-frame planes,
/// pHashes and owners on a block boundary). The same bytes are the
/// in-memory index and the snapshot file (``VisualIndexSnapshot``), apart from the checksums,
/// so an index read from a snapshot is the index built from the catalog, byte for byte.
///
/// Header (little-endian, ``headerSize`` bytes):
///
///     0    8  magic "GLMPVIDX"
///     8    4  format version (``formatVersion``)
///     12   4  fingerprint serialization version (Fingerprint.serializationVersion)
///     16   8  total length in bytes
///     24   8  checksum of bytes 32 ..< ``bodyStart`` (the rest of the header and the block
///             table; glimpse_checksum64)
///     32   8  catalog generation
///     40   4  minimum view quality
///     44   4  catalog id length (≤ 64)
///     48  64  owner: the catalog id (UTF-8, zero padded), or for the index of one
///             partition of several `partition i/P of ` and the catalog id, cut to 64 bytes
///             (``VisualIndexSnapshot/ownerID(catalogID:partition:)``)
///     112  8  views N          120  8  full-frame views F
///     128  8  landmarks L      136  8  distinct regions R
///     144  8  collections C    152  8  memberships M
///     160  8  landmark id bytes 168  8  collection id bytes
///     176  8  fingerprint layout versions K
///
/// Then the block table: one little-endian UInt64 checksum per ``blockSize`` bytes of the
/// body (bytes ``bodyStart`` ..< length, the last block shorter), and the body, whose
/// sections, in order, are: PDQ word planes (4 × N UInt64: plane w holds word w of every view),
/// full-frame PDQ planes (4 × F), full-frame view numbers (F Int32), pHashes (N UInt64),
/// dHashes (N UInt64), histograms (64 N bytes), owners (N Int32, landmark numbers), region
/// numbers (N UInt32), region table (R × 4 Float32: x, y, width, height), landmark id
/// offsets (L + 1 UInt32) and UTF-8 bytes, collection id offsets (C + 1 UInt32) and bytes,
/// per-landmark membership offsets (L + 1 UInt32) and collection numbers (M UInt32), and the
/// fingerprint layout versions of the indexed reference images (K × (UInt32 version, UInt32 count)).
///
/// An index built in memory leaves the checksum and the block table zero (it is trusted);
/// ``VisualIndexSnapshot`` fills them in the file it writes.
struct VisualIndexLayout: Equatable {
    /// Bumped whenever the byte image changes meaning (2: block table, checksum of the header
    /// and table only).
    static let formatVersion: UInt32 = 2
    /// Bytes of body per block-table entry: what one candidate view's row costs to check.
    static let blockSize = 4096
    static let magic: UInt64 = 0x5844_4956_504D_4C47 // "GLMPVIDX" little-endian
    static let headerSize = 192
    static let maximumCatalogIDLength = 64
    /// Where the checksummed bytes start.
    static let checksumStart = 32

    var views: Int
    var fullViews: Int
    var landmarks: Int
    var regions: Int
    var collections: Int
    var memberships: Int
    var landmarkIDBytes: Int
    var collectionIDBytes: Int
    var layoutVersions: Int

    /// Where the block table starts (right after the header), its entries, and where the
    /// body (the sections) starts.
    private(set) var blockTable = Self.headerSize, blockCount = 0, bodyStart = Self.headerSize
    /// Section offsets, computed from the counts.
    private(set) var pdqPlanes = 0, fullPDQPlanes = 0, fullViewNumbers = 0, pHashes = 0, dHashes = 0, histograms = 0
    private(set) var owners = 0, regionNumbers = 0, regionTable = 0, landmarkIDOffsets = 0, landmarkIDData = 0
    private(set) var collectionIDOffsets = 0, collectionIDData = 0, membershipOffsets = 0, membershipData = 0, layoutVersionTable = 0
    /// Total bytes.
    private(set) var length = 0

    init(views: Int, fullViews: Int, landmarks: Int, regions: Int, collections: Int, memberships: Int,
         landmarkIDBytes: Int, collectionIDBytes: Int, layoutVersions: Int) {
        self.views = views
        self.fullViews = fullViews
        self.landmarks = landmarks
        self.regions = regions
        self.collections = collections
        self.memberships = memberships
        self.landmarkIDBytes = landmarkIDBytes
        self.collectionIDBytes = collectionIDBytes
        self.layoutVersions = layoutVersions
        // The body's length decides the table's, which decides where the body starts: the
        // sections are laid out from 0, then moved past the table.
        // The sections checked as they are read start on a block of their own, so that no
        // block holds bytes of both kinds (see `checkedOnOpen`).
        var end = 0
        func section(_ bytes: Int, alignment: Int = 64) -> Int {
            let start = (end + alignment - 1) & ~(alignment - 1)
            end = start + bytes
            return start
        }
        pdqPlanes = section(32 * views)
        fullPDQPlanes = section(32 * fullViews, alignment: Self.blockSize)
        fullViewNumbers = section(4 * fullViews)
        pHashes = section(8 * views, alignment: Self.blockSize)
        dHashes = section(8 * views)
        histograms = section(64 * views)
        owners = section(4 * views, alignment: Self.blockSize)
        regionNumbers = section(4 * views)
        regionTable = section(16 * regions)
        landmarkIDOffsets = section(4 * (landmarks + 1))
        landmarkIDData = section(landmarkIDBytes)
        collectionIDOffsets = section(4 * (collections + 1))
        collectionIDData = section(collectionIDBytes)
        membershipOffsets = section(4 * (landmarks + 1))
        membershipData = section(4 * memberships)
        layoutVersionTable = section(8 * layoutVersions)
        let bodyLength = (end + 63) & ~63
        blockCount = Checksum64.blockCount(of: bodyLength, blockSize: Self.blockSize)
        bodyStart = (Self.headerSize + 8 * blockCount + 63) & ~63
        for keyPath: WritableKeyPath<Self, Int> in [
            \.pdqPlanes, \.fullPDQPlanes, \.fullViewNumbers, \.pHashes, \.dHashes, \.histograms, \.owners, \.regionNumbers,
            \.regionTable, \.landmarkIDOffsets, \.landmarkIDData, \.collectionIDOffsets, \.collectionIDData,
            \.membershipOffsets, \.membershipData, \.layoutVersionTable,
        ] {
            self[keyPath: keyPath] += bodyStart
        }
        length = bodyStart + bodyLength
    }

    /// The byte ranges checked when a snapshot is opened: every section but the PDQ word
    /// planes, pHashes and dHashes (checked chunk by chunk as a scan reaches them) and the
    /// histogram rows (checked per candidate view, when first scored). They are what the consistency check
    /// reads whole, plus the ids and the small full-frame tables. Both kinds start on a block
    /// boundary (relative to ``bodyStart``), so no block is shared. O(1).
    var checkedOnOpen: [Range<Int>] { [fullPDQPlanes..<pHashes, owners..<length] }

    /// Writes the counts into a header at `base` (the other header fields are the caller's).
    func writeCounts(to base: UnsafeMutableRawPointer) {
        for (offset, value) in [(112, views), (120, fullViews), (128, landmarks), (136, regions), (144, collections),
                                (152, memberships), (160, landmarkIDBytes), (168, collectionIDBytes), (176, layoutVersions)] {
            base.storeBytes(of: UInt64(value).littleEndian, toByteOffset: offset, as: UInt64.self)
        }
        base.storeBytes(of: UInt64(length).littleEndian, toByteOffset: 16, as: UInt64.self)
    }

    /// Reads the counts of a header and recomputes the layout; `nil` when a count is absurd
    /// (negative as Int, or a layout longer than `available` bytes or than its stored length).
    static func read(from base: UnsafeRawPointer, available: Int) -> VisualIndexLayout? {
        guard available >= headerSize else { return nil }
        func count(_ offset: Int) -> Int? {
            let value = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            return value <= UInt64(UInt32.max) ? Int(value) : nil
        }
        guard let n = count(112), let f = count(120), let l = count(128), let r = count(136), let c = count(144),
              let m = count(152), let lb = count(160), let cb = count(168), let k = count(176), k <= 65_536, f <= n, n < Int(Int32.max), l < Int(Int32.max) else {
            return nil
        }
        let layout = VisualIndexLayout(views: n, fullViews: f, landmarks: l, regions: r, collections: c, memberships: m,
                                       landmarkIDBytes: lb, collectionIDBytes: cb, layoutVersions: k)
        let stored = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        guard stored == UInt64(layout.length), layout.length <= available else { return nil }
        return layout
    }
}
