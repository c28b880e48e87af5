import Fingerprints

/// A 64-bit digest of an image's full-frame view as the catalog layout computes it (every
/// code, the quality and the histogram): equal pixels, decoded the catalog's way, give
/// equal digests. The store keeps one per fingerprint so that an exact copy of a catalog
/// image is a lookup (``CopyKey``), not a scan, whatever its information content.
///
/// Two different images share a digest only when their full frames agree in all of PDQ,
/// pHash, dHash, aHash, quality and the 64-bin histogram: copies for any practical purpose.
public struct FrameDigest: Sendable, Hashable, CustomStringConvertible {
    /// The digest, as the stores keep it (a signed 64-bit column).
    public var value: Int64

    /// Wraps a stored digest.
    public init(value: Int64) {
        self.value = value
    }

    /// The digest of `fingerprint`'s full-frame view; `nil` without views. O(1).
    public init?(of fingerprint: Fingerprint) {
        guard let full = fingerprint.full else { return nil }
        // One view, unversioned: the digest depends on the view's codes alone.
        let bytes = Fingerprint(views: [full]).serialized()
        value = Int64(bitPattern: SipHash24(key: SIMD2(0x6672_616d_6564_6967, 0x6573_7420_6b65_7931)).hash(bytes))
    }

    /// 16 hex digits.
    public var description: String {
        let digits = String(UInt64(bitPattern: value), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
