import Foundation
import Fingerprints

/// Turns an image file's bytes into a ``Fingerprint``. The indexer calls it from several
/// threads at once, so implementations must be thread-safe; a thrown error marks that
/// one file as failed (its description is the reason reported) and indexing goes on.
public protocol ImageFingerprinting: Sendable {
    /// Decodes and fingerprints one image. `path` is for error messages; `data` holds the
    /// file's bytes, already read.
    func fingerprint(imageData data: Data, path: String) throws -> Fingerprint
}
