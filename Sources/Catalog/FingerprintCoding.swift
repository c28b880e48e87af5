import Foundation
import Fingerprints

/// How fingerprints are stored in the catalog's BLOB column: the Fingerprints module's
/// compact, versioned binary form (``Fingerprint/serialized()``, 3 + 137 bytes per view).
public enum FingerprintCoding {
    /// Encodes `fingerprint` for storage. O(views).
    public static func encode(_ fingerprint: Fingerprint) -> Data {
        Data(fingerprint.serialized())
    }

    /// Decodes a stored fingerprint; `nil` when the bytes are not a readable version.
    public static func decode(_ data: Data) -> Fingerprint? {
        try? Fingerprint(serialized: data)
    }
}
