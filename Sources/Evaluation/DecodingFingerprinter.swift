import Catalog
import Fingerprints
import Foundation
import PixelBuffers

/// Indexes catalog files for the evaluation: decodes the bytes with ``ImageDecoder``
/// (RGBA8, whole image) and fingerprints the pixels with the given function.
/// Thread-safe when the function is.
struct DecodingFingerprinter: ImageFingerprinting {
    /// Pixels → catalog fingerprint.
    let fingerprint: @Sendable (PixelBuffer) -> Fingerprint

    /// Decodes and fingerprints one file. O(file size + pixels).
    func fingerprint(imageData data: Data, path: String) throws -> Fingerprint {
        let pixels = try ImageDecoder().decode(data, source: path, options: DecodeOptions(alwaysRGBA: true)).pixels
        return fingerprint(pixels)
    }
}
