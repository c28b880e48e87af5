#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PixelBuffers

/// The one way Glimpse turns an image — a file, its bytes, or pixels already decoded — into
/// a ``Fingerprint``: catalog images (`glimpse index`, the evaluation's catalog) with
/// ``catalog``, query images (`glimpse query`, `match`, the evaluation's queries, the
/// server) with ``query``. The two differ only by their ``layout``.
///
/// Decoding: ``ImageDecoder/decodeRows(_:source:options:into:)`` hands the decoded rows
/// straight to the fingerprinter's working planes (a whole non-interlaced PNG or upright
/// JPEG is never stored whole), upright per EXIF, JPEGs at the smallest DCT scale that keeps
/// ``minimumShortSide`` pixels on the short side (default ``decodeShortSide``; small query
/// images smaller, ``querySmallImageSides``), optionally only a region. Pixels already decoded go
/// through ``fingerprint(of:)``, which gives the same fingerprint as decoding them.
///
/// Thread-safe (a value with no shared state). Cost per image: one (scaled) decode plus
/// O(views × workingSize²); see ``Fingerprinter``.
public struct ImageFingerprinter: Sendable {
    /// Pixels → views (working size, instruction set).
    public var fingerprinter: Fingerprinter
    /// Which views are computed (``FingerprintViewLayout/catalog`` or a query layout).
    public var layout: FingerprintViewLayout
    /// Decodes file bytes.
    public var decoder: ImageDecoder
    /// Smallest short side, in pixels, a JPEG is decoded at (DCT scaling stops above it).
    public var minimumShortSide: Int
    /// Smallest long side, in pixels, a JPEG is decoded at.
    public var minimumLongSide: Int

    /// Glimpse's decode size (layout version 2): JPEGs and WebPs are decoded at the smallest
    /// DCT scale whose short side is at least 192 pixels (3 × PDQ's 64-sample grid, so the
    /// smallest catalog view, the centre crop keeping half of each side, still covers at
    /// least 96 decoded pixels per side) and whose long side is at least
    /// ``decodeLongSide``. A 640×480 JPEG decodes at 1/2 (320×240, a quarter of the pixels),
    /// a 1080p one at 1/4, a 12 MP one at 1/8; a 512×512 one stays at 1/1.
    public static let decodeShortSide = 192
    /// The long-side condition of the decode size: 320 pixels. Measured with `glimpse eval`
    /// (the runs are in `git log`): catalog images decoded to a 256-pixel long side
    /// lost half-area and rotated crops on the swapped held-out split; at 320 nothing is lost.
    public static let decodeLongSide = 320
    /// Glimpse's decode size for *small queries* (``FingerprintViewLayout/query(orientations:)``
    /// of a region of at most 640 × 480 pixels that the catalog's decode size already
    /// shrinks): the smallest DCT scale whose short side is at least 120 pixels and whose
    /// long side is at least 160, so the query's smallest view (the centre crop keeping 70 %
    /// of each side) still covers at least 84 decoded pixels per side, above PDQ's 64-sample
    /// grid. A 640×480 JPEG query decodes at 1/4 (160×120: the entropy decoding is the same,
    /// the IDCT, colour conversion and working planes a quarter); a 512×512 one stays whole
    /// (as in the catalog); anything larger (a screenshot, a 1080p photo) at the catalog's
    /// decode size. Measured with `glimpse eval --query-jpeg-quality` (docs/ACCURACY.md,
    /// "Queries as JPEG files"): both bounds are there because without them 720×1480 screenshots
    /// (decoded to a 180-pixel short side) lost a match and let two negatives past the
    /// threshold, and crops of 512×512 photos decoded at 1/2 lost one. Queries are never
    /// stored, so this is no layout change.
    public static let querySmallImageSides = DecodeOptions.SmallImageSides(maxPixels: 640 * 480, minimumShortSide: 120,
                                                                          minimumLongSide: 160)
    /// The small-image decode size (``DecodeOptions/smallImageSides``): ``querySmallImageSides``
    /// for Glimpse's query layouts (``isQueryLayout(_:)``), `nil` for the catalog.
    public var smallImageSides: DecodeOptions.SmallImageSides?
    /// Largest image accepted, in pixels (checked from the header before decoding).
    public var maxPixels: Int

    /// Creates an image fingerprinter computing `layout`.
    ///
    /// - Parameters:
    ///   - minimumShortSide: default ``decodeShortSide`` (capped at the working size).
    ///   - minimumLongSide: default ``decodeLongSide`` (capped at the working size) when
    ///     `minimumShortSide` is default too, else no condition. When both are default and
    ///     `layout` is one of Glimpse's query layouts (``isQueryLayout(_:)``), small images
    ///     are decoded smaller (``querySmallImageSides``).
    ///   - maxPixels: default ``DecodeOptions``'s pixel cap.
    public init(layout: FingerprintViewLayout, fingerprinter: Fingerprinter = Fingerprinter(),
                decoder: ImageDecoder = ImageDecoder(), minimumShortSide: Int? = nil, minimumLongSide: Int? = nil,
                maxPixels: Int = DecodeOptions().maxPixels) {
        self.layout = layout
        self.fingerprinter = fingerprinter
        self.decoder = decoder
        self.minimumShortSide = max(1, minimumShortSide ?? min(Self.decodeShortSide, fingerprinter.workingSize))
        self.minimumLongSide = max(1, minimumLongSide ?? (minimumShortSide == nil ? min(Self.decodeLongSide, fingerprinter.workingSize) : 1))
        self.smallImageSides = minimumShortSide == nil && minimumLongSide == nil && Self.isQueryLayout(layout) ? Self.querySmallImageSides : nil
        self.maxPixels = maxPixels
    }

    /// Whether `layout` is one of Glimpse's query layouts
    /// (``FingerprintViewLayout/query(orientations:)`` for any ``QueryOrientations``, with or
    /// without its tilt views, ``FingerprintViewLayout/withoutTilts``), which decode small
    /// JPEGs and WebPs smaller (``querySmallImageSides``). O(1).
    public static func isQueryLayout(_ layout: FingerprintViewLayout) -> Bool {
        QueryOrientations.allCases.contains { FingerprintViewLayout.query(orientations: $0).withoutTilts == layout.withoutTilts }
    }

    /// Glimpse's catalog fingerprints (``FingerprintViewLayout/catalog``).
    public static var catalog: ImageFingerprinter { ImageFingerprinter(layout: .catalog) }

    /// Glimpse's query fingerprints (``FingerprintViewLayout/query``: every orientation).
    public static var query: ImageFingerprinter { ImageFingerprinter(layout: .query) }

    /// Glimpse's query fingerprints trying only `orientations`
    /// (``FingerprintViewLayout/query(orientations:)``).
    public static func query(orientations: QueryOrientations) -> ImageFingerprinter {
        ImageFingerprinter(layout: FingerprintViewLayout.query(orientations: orientations))
    }

    /// The layout version of the fingerprints this makes (``FingerprintViewLayout/version``).
    public var layoutVersion: UInt16 { layout.version }

    /// The decode options used for files and bytes: DCT scaling to ``minimumShortSide``
    /// (``smallImageSides`` for small images), EXIF orientation applied, the pixel cap,
    /// optionally only `region`.
    public func decodeOptions(region: DecodeOptions.Region? = nil) -> DecodeOptions {
        DecodeOptions(region: region, minimumShortSide: minimumShortSide, minimumLongSide: minimumLongSide,
                      smallImageSides: smallImageSides, maxPixels: maxPixels)
    }

    /// Fingerprints pixels already decoded. O(pixels + views × workingSize²).
    public func fingerprint(of pixels: PixelBuffer) -> Fingerprint {
        fingerprinter.fingerprint(of: pixels, layout: layout)
    }

    /// Decodes image bytes (named `source` in errors), optionally only `region`, and
    /// fingerprints them while decoding.
    ///
    /// - Throws: ``DecodeError`` naming `source` and the reason (corrupt, truncated,
    ///   unsupported, too large, region outside the image).
    public func fingerprint<Bytes: ContiguousBytes>(decoding bytes: Bytes, source: String = "<memory>",
                                                    region: DecodeOptions.Region? = nil) throws(DecodeError) -> Fingerprint {
        try fingerprinter.fingerprint(decoding: bytes, source: source, options: decodeOptions(region: region),
                                      layout: layout, decoder: decoder)
    }

    /// Reads the file at `path` and fingerprints it while decoding, optionally only `region`.
    ///
    /// - Throws: ``DecodeError`` naming `path` and the reason (unreadable, corrupt, …).
    public func fingerprint(file path: String, region: DecodeOptions.Region? = nil) throws(DecodeError) -> Fingerprint {
        try fingerprinter.fingerprint(decodingFile: path, options: decodeOptions(region: region), layout: layout, decoder: decoder)
    }
}
