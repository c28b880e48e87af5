import Catalog
import Fingerprints
import Foundation
import Synchronization
import SyntheticData

/// Deterministic stand-in for the real fingerprinter: codes derived from the file's
/// bytes, so equal content gives equal fingerprints and any change gives new ones.
/// Files containing the text "CORRUPT" fail. Counts its calls.
public final class SyntheticFingerprinter: ImageFingerprinting {
    /// Calls made so far (also ``callCount``).
    public let calls = Mutex(0)
    /// The layout version stamped on every fingerprint (and declared to the indexer).
    public let layoutVersion: UInt16

    /// Creates a fingerprinter stamping `layoutVersion` on what it makes.
    public init(layoutVersion: UInt16 = FingerprintViewLayout.unversioned) {
        self.layoutVersion = layoutVersion
    }

    /// The error for a file containing "CORRUPT".
    public struct Corrupt: Error, CustomStringConvertible {
        /// The message.
        public var description: String { "corrupt image data" }
    }

    /// How many fingerprints were asked for.
    public var callCount: Int { calls.withLock { $0 } }

    /// A fingerprint derived from `data` (SipHash of the bytes as the seed); throws ``Corrupt``.
    public func fingerprint(imageData data: Data, path: String) throws -> Fingerprint {
        calls.withLock { $0 += 1 }
        if data.range(of: Data("CORRUPT".utf8)) != nil { throw Corrupt() }
        var fingerprint = Self.fingerprint(seed: data.withUnsafeBytes { SipHash24(key: SIMD2(1, 2)).hash($0) })
        fingerprint.layoutVersion = layoutVersion
        return fingerprint
    }

    /// Three synthetic views (full frame and a centre crop) from `seed`. O(1).
    public static func fingerprint(seed: UInt64) -> Fingerprint {
        var generator = SeededGenerator(seed: seed)
        let views = (0..<3).map { index in
            FingerprintView(
                region: index == 0 ? .full : ViewRegion(x: 0.1, y: 0.1, width: 0.8, height: 0.8),
                aHash: generator.next(), dHash: generator.next(), pHash: generator.next(),
                pdq: PDQHash(words: SIMD4(generator.next(), generator.next(), generator.next(), generator.next())),
                quality: 80, histogram: ColorHistogram(bins: (0..<64).map { _ in UInt8(truncatingIfNeeded: generator.next() & 7) }))
        }
        return Fingerprint(views: views)
    }
}
