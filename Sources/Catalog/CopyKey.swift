import Foundation
import Fingerprints

/// What makes a query image an exact copy of a catalog image: the same file bytes
/// (``ContentHash``, what `glimpse index` already keeps per image) or the same pixels
/// (``FrameDigest`` of the catalog layout's full-frame view). A search with a key returns
/// every live landmark holding such a copy first, with score 1, whatever its information
/// content (``EntityStore/landmarkIDs(copying:)``).
///
/// Only a whole image has a key: a selected region is never a copy of a catalog file.
public struct CopyKey: Sendable, Hashable {
    /// The hash of the query file's bytes.
    public var contentHash: ContentHash
    /// The digest of its pixels decoded as the catalog decodes them; `nil` when not
    /// computed (the query had enough detail for the search to find its copies).
    public var frameDigest: FrameDigest?

    /// Creates a key.
    public init(contentHash: ContentHash, frameDigest: FrameDigest? = nil) {
        self.contentHash = contentHash
        self.frameDigest = frameDigest
    }

    /// The key of a whole query image given as `bytes` whose query fingerprint is
    /// `queryFingerprint`. The pixel digest costs a second decode with the catalog's
    /// fingerprinter, so it is computed only when the query's
    /// ``Fingerprint/wholeImageQuality`` is under `minimumViewQuality`: an image with a
    /// searchable view finds its pixel copies by search (an identical view scores 1); a
    /// flat or finely textured one has only this.
    ///
    /// - Complexity: O(bytes) for the content hash; plus one decode and catalog fingerprint
    ///   (O(pixels)) when the query has no searchable view.
    public init<Bytes: ContiguousBytes>(
        bytes: Bytes, queryFingerprint: Fingerprint, minimumViewQuality: Int = FingerprintView.minimumSearchableQuality,
        catalogFingerprinter: ImageFingerprinter = .catalog
    ) {
        contentHash = bytes.withUnsafeBytes { ContentHash(of: $0) }
        frameDigest = nil
        if queryFingerprint.wholeImageQuality < minimumViewQuality,
           let catalogFingerprint = try? bytes.withUnsafeBytes({ try catalogFingerprinter.fingerprint(decoding: $0, source: "query") }) {
            frameDigest = FrameDigest(of: catalogFingerprint)
        }
    }

    /// The 24-byte form a page token carries: the content hash's 16 bytes
    /// (``ContentHash/rawBytes``), then the digest's 8 (little-endian), all zero bytes
    /// standing for "no digest". O(1).
    public var bytes: [UInt8] {
        var out = contentHash.rawBytes
        let digest = UInt64(bitPattern: frameDigest?.value ?? 0)
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: digest >> UInt64(shift))) }
        return out
    }

    /// Reads ``bytes``; `nil` unless exactly 24 bytes. O(1).
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 24, let hash = ContentHash(rawBytes: bytes.prefix(16)) else { return nil }
        contentHash = hash
        var digest: UInt64 = 0
        for (offset, byte) in bytes.dropFirst(16).enumerated() { digest |= UInt64(byte) << UInt64(offset * 8) }
        frameDigest = digest == 0 ? nil : FrameDigest(value: Int64(bitPattern: digest))
    }
}
