/// Why bytes could not be read back as a ``Fingerprint`` (see ``Fingerprint/init(serialized:)``).
public enum FingerprintFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer bytes than the header (3 bytes) or than the views it announces need.
    case truncated(needed: Int, got: Int)
    /// The version byte names a format this build does not read.
    case unsupportedVersion(UInt8)
    /// Bytes are left after the last announced view.
    case trailingBytes(Int)
    /// View `index` has a region that is not finite or not inside 0…1.
    case invalidRegion(index: Int)
    /// View `index` has a quality above 100.
    case invalidQuality(index: Int, value: Int)

    public var description: String {
        switch self {
        case .truncated(let needed, let got): "serialized fingerprint is truncated: needs \(needed) bytes, has \(got)"
        case .unsupportedVersion(let v): "serialized fingerprint has unsupported format version \(v) (this build reads version \(Fingerprint.serializationVersion))"
        case .trailingBytes(let n): "serialized fingerprint has \(n) unexpected bytes after its last view"
        case .invalidRegion(let i): "serialized fingerprint view \(i) has a region outside 0…1"
        case .invalidQuality(let i, let q): "serialized fingerprint view \(i) has quality \(q), above 100"
        }
    }
}

/// Compact binary form of a ``Fingerprint``, for the catalog's storage.
///
/// Version 1 layout (all integers little-endian):
/// ```
/// offset  size  field
/// 0       1     format version (1)
/// 1       2     view count n (UInt16)
/// 3       137·n views, each:
///   +0    16    region x, y, width, height (Float32 bit patterns)
///   +16   8     aHash
///   +24   8     dHash
///   +32   8     pHash
///   +40   32    PDQ words 0…3
///   +72   1     quality (0…100)
///   +73   64    histogram bins
/// ```
/// A full-frame-only fingerprint takes 140 bytes.
extension Fingerprint {
    /// The format version ``serialized()`` writes and ``init(serialized:)`` reads.
    public static let serializationVersion: UInt8 = 1
    /// Bytes per view in version 1.
    public static let serializedViewSize = 137
    static let serializedHeaderSize = 3

    /// The compact binary form (see the extension's documentation). O(views).
    ///
    /// - Precondition: at most 65,535 views.
    public func serialized() -> [UInt8] {
        precondition(views.count <= Int(UInt16.max), "a fingerprint holds at most 65535 views")
        var out: [UInt8] = []
        out.reserveCapacity(Self.serializedHeaderSize + Self.serializedViewSize * views.count)
        out.append(Self.serializationVersion)
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
        guard b.count >= Self.serializedHeaderSize else {
            throw .truncated(needed: Self.serializedHeaderSize, got: b.count)
        }
        guard b[0] == Self.serializationVersion else { throw .unsupportedVersion(b[0]) }
        func read(_ at: Int, _ n: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<n { v |= UInt64(b[at + i]) << (8 * UInt64(i)) }
            return v
        }
        let count = Int(read(1, 2))
        let needed = Self.serializedHeaderSize + Self.serializedViewSize * count
        guard b.count >= needed else { throw .truncated(needed: needed, got: b.count) }
        guard b.count == needed else { throw .trailingBytes(b.count - needed) }
        var views: [FingerprintView] = []
        views.reserveCapacity(count)
        for index in 0..<count {
            let o = Self.serializedHeaderSize + Self.serializedViewSize * index
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
        self.init(views: views)
    }
}
