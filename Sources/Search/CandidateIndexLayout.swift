/// The byte image of a ``CandidateIndex``: a fixed header, then 64-byte-aligned sections.
/// The same bytes in memory and in the file beside the visual-index snapshot
/// (``CandidateIndex/write(to:)``), apart from the checksum.
///
/// Header (little-endian, ``headerSize`` bytes):
///
///     0    8  magic "GLMPCIDX"
///     8    4  format version (``formatVersion``)
///     12   4  code bits (128)
///     16   8  total length in bytes
///     24   8  checksum of bytes 32 ..< length (glimpse_checksum64)
///     32   8  catalog generation of the visual index it was built from
///     40   8  that index's identity (``VisualIndex/identity``)
///     48   8  lists        56  8  entries (views)     64  8  landmarks
///
/// Sections: list centroids (lists × 16 bytes, ``CandidateCode``), list offsets (lists + 1
/// UInt32), full-frame ends (lists UInt32: list l's full-frame entries are offsets[l] ..<
/// fullEnds[l], the rest up to offsets[l + 1]), entry codes (entries × 16 bytes, list by
/// list, full-frame views first, each part in view number order), entry references (entries UInt32: the view's landmark number, bit 31 set for a
/// full-frame view), landmark view starts (landmarks + 1 UInt32: landmark n owns views
/// starts[n] ..< starts[n + 1] of the visual index).
struct CandidateIndexLayout: Equatable {
    static let formatVersion: UInt32 = 1
    static let magic: UInt64 = 0x5844_4943_504D_4C47 // "GLMPCIDX" little-endian
    static let headerSize = 128
    static let checksumStart = 32
    /// Bit of an entry reference marking a full-frame view.
    static let fullFrameBit: UInt32 = 1 << 31

    var lists: Int
    var entries: Int
    var landmarks: Int

    private(set) var centroids = 0, listOffsets = 0, fullEnds = 0, codes = 0, references = 0, viewStarts = 0, length = 0

    init(lists: Int, entries: Int, landmarks: Int) {
        self.lists = lists
        self.entries = entries
        self.landmarks = landmarks
        var end = Self.headerSize
        func section(_ bytes: Int) -> Int {
            let start = (end + 63) & ~63
            end = start + bytes
            return start
        }
        centroids = section(16 * lists)
        listOffsets = section(4 * (lists + 1))
        fullEnds = section(4 * lists)
        codes = section(16 * entries)
        references = section(4 * entries)
        viewStarts = section(4 * (landmarks + 1))
        length = (end + 63) & ~63
    }

    /// Writes the header (all but the checksum, which only the file carries) at `base`. O(1).
    func writeHeader(to base: UnsafeMutableRawPointer, generation: Int64, identity: UInt64) {
        base.storeBytes(of: Self.magic.littleEndian, toByteOffset: 0, as: UInt64.self)
        base.storeBytes(of: Self.formatVersion.littleEndian, toByteOffset: 8, as: UInt32.self)
        base.storeBytes(of: UInt32(128).littleEndian, toByteOffset: 12, as: UInt32.self)
        for (offset, value) in [(16, UInt64(length)), (32, UInt64(bitPattern: generation)), (40, identity),
                                (48, UInt64(lists)), (56, UInt64(entries)), (64, UInt64(landmarks))] {
            base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
        }
    }

    /// Reads the counts of a header and recomputes the layout; `nil` when a count is absurd or
    /// the layout's length is not the stored one or not `available`. O(1).
    static func read(from base: UnsafeRawPointer, available: Int) -> CandidateIndexLayout? {
        guard available >= headerSize else { return nil }
        func count(_ offset: Int) -> Int? {
            let value = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            return value < UInt64(Int32.max) ? Int(value) : nil
        }
        guard let lists = count(48), let entries = count(56), let landmarks = count(64), lists > 0 else { return nil }
        let layout = CandidateIndexLayout(lists: lists, entries: entries, landmarks: landmarks)
        let stored = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        guard stored == UInt64(layout.length), layout.length == available else { return nil }
        return layout
    }
}
