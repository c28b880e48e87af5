import Foundation
import Fingerprints

/// Turns an image file's bytes into a ``Fingerprint``. The indexer calls it from several
/// threads at once, so implementations must be thread-safe; a thrown error marks that
/// one file as failed (its description is the reason reported) and indexing goes on.
///
/// Glimpse's own implementation is the Fingerprints module's ``ImageFingerprinter``
/// (``ImageFingerprinter/catalog`` for indexing).
public protocol ImageFingerprinting: Sendable {
    /// Decodes and fingerprints one image. `path` is for error messages; `data` holds the
    /// file's bytes, already read.
    func fingerprint(imageData data: Data, path: String) throws -> Fingerprint

    /// The ``Fingerprint/layoutVersion`` of the fingerprints this makes. The indexer
    /// re-fingerprints stored fingerprints of any other version (reported as updated).
    /// Default ``FingerprintViewLayout/unversioned``.
    var layoutVersion: UInt16 { get }
}

extension ImageFingerprinting {
    /// ``FingerprintViewLayout/unversioned``: fingerprints made by hand are never outdated.
    public var layoutVersion: UInt16 { FingerprintViewLayout.unversioned }
}

extension ImageFingerprinter: ImageFingerprinting {
    /// Decodes and fingerprints one image while decoding (rows go from the decoder straight
    /// into the working planes), with this fingerprinter's layout.
    ///
    /// - Throws: the decoder's ``DecodeError`` (corrupt, truncated, unsupported, too large),
    ///   whose description names the file and the reason.
    public func fingerprint(imageData data: Data, path: String) throws -> Fingerprint {
        try fingerprint(decoding: data, source: path)
    }
}
