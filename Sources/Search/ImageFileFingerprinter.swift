import Foundation

/// Decodes image files and fingerprints their pixels, decoding only as much as the
/// fingerprint needs: JPEGs at the smallest DCT scale (1/8, 1/4, 1/2, 1) whose short side
/// still has ``minimumShortSide`` pixels (the fingerprinter's working size), PNGs at full
/// size. Used by the indexer (catalog layout) and by batch matching (query layout).
///
/// Thread-safe when `fingerprint` is. Cost: one decode (at most the region, scaled) plus
/// one fingerprint.
public struct ImageFileFingerprinter: ImageFingerprinting {
    /// Smallest short side, in pixels, a JPEG is decoded at (DCT scaling stops above it).
    public var minimumShortSide: Int
    /// Largest image accepted, in pixels (checked from the header before decoding).
    public var maxPixels: Int
    /// Pixels → fingerprint (catalog or query layout).
    public let fingerprint: @Sendable (PixelBuffer) -> Fingerprint

    /// Creates a file fingerprinter.
    ///
    /// - Parameters:
    ///   - minimumShortSide: see ``minimumShortSide`` (default 512, the fingerprinter's
    ///     working size: decoding more pixels changes nothing but the time).
    ///   - fingerprint: pixels → fingerprint, for example `Fingerprinter().fingerprint(of:)`.
    public init(minimumShortSide: Int = 512, maxPixels: Int = DecodeOptions().maxPixels,
                fingerprint: @escaping @Sendable (PixelBuffer) -> Fingerprint) {
        self.minimumShortSide = max(1, minimumShortSide)
        self.maxPixels = maxPixels
        self.fingerprint = fingerprint
    }

    /// The decode options used: DCT scaling, RGBA output, the pixel limit, `region`.
    public func decodeOptions(region: DecodeOptions.Region? = nil) -> DecodeOptions {
        DecodeOptions(region: region, minimumShortSide: minimumShortSide, maxPixels: maxPixels, alwaysRGBA: true)
    }

    /// Decodes `data` (named `path` in errors) and fingerprints it (``ImageFingerprinting``).
    ///
    /// - Throws: ``DecodeError`` naming `path` and the reason.
    public func fingerprint(imageData data: Data, path: String) throws -> Fingerprint {
        try fingerprint(of: data, name: path)
    }

    /// Decodes `data` (named `name` in errors), optionally only `region`, and fingerprints it.
    ///
    /// - Throws: ``DecodeError`` naming `name` and the reason.
    public func fingerprint(of data: Data, name: String, region: DecodeOptions.Region? = nil) throws(DecodeError) -> Fingerprint {
        let image = try ImageDecoder().decode(data, source: name, options: decodeOptions(region: region))
        return fingerprint(image.pixels)
    }

    /// Reads, decodes and fingerprints the file at `path`, optionally only `region`.
    ///
    /// - Throws: ``DecodeError`` naming `path` and the reason (unreadable, corrupt…).
    public func fingerprint(file path: String, region: DecodeOptions.Region? = nil) throws(DecodeError) -> Fingerprint {
        let image = try ImageDecoder().decode(file: path, options: decodeOptions(region: region))
        return fingerprint(image.pixels)
    }
}
