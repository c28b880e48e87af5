/// Why bytes could not be read back as a ``Fingerprint`` (see ``Fingerprint/init(serialized:)``).
public enum FingerprintFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the header (5 bytes; 3 in format 1) or than the views it announces need.
    case truncated(needed: Int, got: Int)
    /// The version byte names a format this build does not read.
    case unsupportedVersion(UInt8)
    /// Bytes are left after the last announced view.
    case trailingBytes(Int)
    /// View `index` has a region that is not finite or not inside 0…1.
    case invalidRegion(index: Int)
    /// View `index` has a quality above 100.
    case invalidQuality(index: Int, value: Int)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .truncated(let needed, let got): "serialized fingerprint is truncated: needs \(needed) bytes, has \(got)"
        case .unsupportedVersion(let v): "serialized fingerprint has unsupported format version \(v) (this build reads versions 1 and \(Fingerprint.serializationVersion))"
        case .trailingBytes(let n): "serialized fingerprint has \(n) unexpected bytes after its last view"
        case .invalidRegion(let i): "serialized fingerprint view \(i) has a region outside 0…1"
        case .invalidQuality(let i, let q): "serialized fingerprint view \(i) has quality \(q), above 100"
        }
    }
}

/// Compact binary form of a ``Fingerprint``, for the catalog's storage.
///
/// Version 2 layout (all integers little-endian):
/// ```
/// offset  size  field
/// 0       1     format version (2)
/// 1       2     layout version (UInt16, ``Fingerprint/layoutVersion``)
/// 3       2     view count n (UInt16)
/// 5       137·n views, each:
///   +0    16    region x, y, width, height (Float32 bit patterns)
///   +16   8     aHash
///   +24   8     dHash
///   +32   8     pHash
///   +40   32    PDQ words 0…3
///   +72   1     quality (0…100)
///   +73   64    histogram bins
/// ```
/// A full-frame-only fingerprint takes 142 bytes. Version 1 (still read) had no layout
/// version field (header: version byte, view count; 3 bytes): its fingerprints were all
/// made by layout version 1 and read back as such.
extension Fingerprint {
    /// The format version ``serialized()`` writes; ``init(serialized:)`` reads it and 1.
    public static let serializationVersion: UInt8 = 2
    /// Bytes per view (versions 1 and 2).
    public static let serializedViewSize = 137
    static let serializedHeaderSize = 5
    static let legacyHeaderSize = 3

    /// The compact binary form (see the extension's documentation). O(views).
    ///
    /// - Precondition: at most 65,535 views.
    public func serialized() -> [UInt8] {
        precondition(views.count <= Int(UInt16.max), "a fingerprint holds at most 65535 views")
        var out: [UInt8] = []
        out.reserveCapacity(Self.serializedHeaderSize + Self.serializedViewSize * views.count)
        out.append(Self.serializationVersion)
        append(UInt64(layoutVersion), bytes: 2, to: &out)
        append(UInt64(views.count), bytes: 2, to: &out)
        for v in views {
            for f in [v.region.x, v.region.y, v.region.width, v.region.height] {
                append(UInt64(f.bitPattern), bytes: 4, to: &out)
            }
            append(v.aHash, bytes: 8, to: &out)
            append(v.dHash, bytes: 8, to: &out)
            append(v.pHash, bytes: 8, to: &out)
            for w in 0..<4 { append(v.pdq.words[w], bytes: 8, to: &out) }
            out.append(UInt8(clamping: v.quality))
            v.histogram.appendBins(to: &out)
        }
        return out
    }

    private func append(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    /// Reads the form ``serialized()`` writes.
    ///
    /// - Throws: ``FingerprintFormatError`` when the bytes are truncated, carry an unknown
    ///   version, have trailing bytes, or hold an invalid region or quality.
    public init(serialized bytes: some Collection<UInt8>) throws(FingerprintFormatError) {
        let b = Array(bytes)
        let (header, layoutVersion) = try Self.header(b)
        func read(_ at: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v |= UInt64(b[at + i]) << (8 * UInt64(i)) }
            return v
        }
        let count = Int(read(header - 2, 2))
        let needed = header + Self.serializedViewSize * count
        guard b.count >= needed else { throw .truncated(needed: needed, got: b.count) }
        guard b.count == needed else { throw .trailingBytes(b.count - needed) }
        var views: [FingerprintView] = []
        views.reserveCapacity(count)
        for index in 0..<count {
            let o = header + Self.serializedViewSize * index
            let f = (0..<4).map { Float(bitPattern: UInt32(read(o + 4 * $0, 4))) }
            let region = ViewRegion(x: f[0], y: f[1], width: f[2], height: f[3])
            guard region.isValid else { throw .invalidRegion(index: index) }
            let quality = Int(b[o + 72])
            guard quality <= 100 else { throw .invalidQuality(index: index, value: quality) }
            var histogram = SIMD64<UInt8>()
            for i in 0..<64 { histogram[i] = b[o + 73 + i] }
            views.append(FingerprintView(
                region: region, aHash: read(o + 16, 8), dHash: read(o + 24, 8), pHash: read(o + 32, 8),
                pdq: PDQHash(words: SIMD4(read(o + 40, 8), read(o + 48, 8), read(o + 56, 8), read(o + 64, 8))),
                quality: quality, histogram: ColorHistogram(packed: histogram)))
        }
        self.init(views: views, layoutVersion: layoutVersion)
    }

    /// The layout version of a serialized fingerprint, read from its header alone (what
    /// an indexer needs to decide whether to recompute it). O(1).
    ///
    /// - Throws: ``FingerprintFormatError`` when the header is truncated or of an unknown
    ///   format version.
    public static func layoutVersion(ofSerialized bytes: some Collection<UInt8>) throws(FingerprintFormatError) -> UInt16 {
        try header(Array(bytes.prefix(serializedHeaderSize))).layoutVersion
    }

    /// Header size and layout version of format 1 or 2.
    private static func header(_ b: [UInt8]) throws(FingerprintFormatError) -> (size: Int, layoutVersion: UInt16) {
        guard let version = b.first else { throw .truncated(needed: legacyHeaderSize, got: 0) }
        switch version {
        case 1:
            guard b.count >= legacyHeaderSize else { throw .truncated(needed: legacyHeaderSize, got: b.count) }
            return (legacyHeaderSize, 1)
        case serializationVersion:
            guard b.count >= serializedHeaderSize else { throw .truncated(needed: serializedHeaderSize, got: b.count) }
            return (serializedHeaderSize, UInt16(b[1]) | UInt16(b[2]) << 8)
        default:
            throw .unsupportedVersion(version)
        }
    }
}
