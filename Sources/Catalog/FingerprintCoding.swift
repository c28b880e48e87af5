import Foundation
import Fingerprints

/// How fingerprints are stored in the catalog's BLOB column. The first byte names the
/// encoding so that the format can change without breaking existing catalogs.
///
/// Current encoding: `J` followed by the JSON of the `Codable` ``Fingerprint``
/// (temporary, until the Fingerprints module's compact serialization lands).
enum FingerprintCoding {
    static let jsonTag = UInt8(ascii: "J")

    /// Encodes `fingerprint` for storage.
    static func encode(_ fingerprint: Fingerprint) -> Data {
        var data = Data([jsonTag])
        // Encoding a value type of plain numbers cannot fail.
        data.append((try? JSONEncoder().encode(fingerprint)) ?? Data())
        return data
    }

    /// Decodes a stored fingerprint; `nil` when the bytes are not a known encoding.
    static func decode(_ data: Data) -> Fingerprint? {
        guard let tag = data.first else { return nil }
        switch tag {
        case jsonTag: return try? JSONDecoder().decode(Fingerprint.self, from: data.dropFirst())
        default: return nil
        }
    }
}
