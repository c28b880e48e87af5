import Foundation
import Fingerprints
import PixelBuffers

/// The default ``ImageFingerprinting`` for indexing: decodes a PNG or JPEG with
/// ``ImageDecoder`` (upright per EXIF, JPEGs at the smallest DCT scale that keeps at least
/// the fingerprinter's working size on the short side) and computes the catalog-layout
/// fingerprint with ``Fingerprinter``. Thread-safe.
///
/// Cost per image: one (scaled) decode plus O(views × workingSize²).
public struct DecodingImageFingerprinter: ImageFingerprinting {
    /// Computes the fingerprint from the decoded pixels.
    public var fingerprinter: Fingerprinter
    /// Decodes the file bytes.
    public var decoder: ImageDecoder

    /// Creates a fingerprinter; the defaults are Glimpse's catalog settings.
    public init(fingerprinter: Fingerprinter = Fingerprinter(), decoder: ImageDecoder = ImageDecoder()) {
        self.fingerprinter = fingerprinter
        self.decoder = decoder
    }

    /// Decodes and fingerprints one image.
    ///
    /// - Throws: the decoder's ``DecodeError`` (corrupt, truncated, unsupported, too large),
    ///   whose description names the file and the reason.
    public func fingerprint(imageData data: Data, path: String) throws -> Fingerprint {
        let options = DecodeOptions(minimumShortSide: fingerprinter.workingSize)
        // Rows go from the decoder straight into the working image (a PNG is never stored at
        // full size); same fingerprint as decoding first.
        return try fingerprinter.fingerprint(decoding: data, source: path, options: options, decoder: decoder)
    }
}
