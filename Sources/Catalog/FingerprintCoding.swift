import Foundation
import Fingerprints

/// How fingerprints are stored in the catalog's BLOB column: the Fingerprints module's
/// compact, versioned binary form (``Fingerprint/serialized()``, 5 + 137 bytes per view), which
/// carries the fingerprint's layout version.
public enum FingerprintCoding {
    /// Encodes `fingerprint` for storage. O(views).
    public static func encode(_ fingerprint: Fingerprint) -> Data {
        Data(fingerprint.serialized())
    }

    /// Decodes a stored fingerprint; `nil` when the bytes are not a readable version.
    public static func decode(_ data: Data) -> Fingerprint? {
        try? Fingerprint(serialized: data)
    }

    /// The layout version of a stored fingerprint from its first bytes (format 1 reads as
    /// layout 1); `nil` when they are not a readable header.
    public static func layoutVersion(_ header: Data) -> UInt16? {
        try? Fingerprint.layoutVersion(ofSerialized: header)
    }
}
