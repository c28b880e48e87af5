/// What to decode and how: region, output size, orientation, limits.
///
/// The defaults decode the whole image upright, at full size, refusing anything over
/// 150 megapixels and any damaged file.
public struct DecodeOptions: Sendable, Hashable {
    /// A part of the image, in the coordinates of the *oriented* (upright) image unless
    /// ``DecodeOptions/applyOrientation`` is false, in which case stored coordinates.
    public enum Region: Sendable, Hashable, CustomStringConvertible {
        /// A rectangle of whole pixels at full resolution.
        case pixels(PixelRect)
        /// A rectangle as fractions (0…1) of the image width and height. Edges are rounded
        /// outward to whole pixels.
        case fractions(x: Double, y: Double, width: Double, height: Double)

        /// `"10,20 30x40"` or `"0.1,0.2 0.3x0.4 (fractions)"`.
        public var description: String {
            switch self {
            case .pixels(let rect): rect.description
            case .fractions(let x, let y, let w, let h): "\(x),\(y) \(w)x\(h) (fractions)"
            }
        }
    }

    /// The part to decode; `nil` decodes the whole image.
    public var region: Region?
    /// When set, JPEGs (in the DCT domain) and WebPs (by libwebp's scaler) are decoded at
    /// the smallest scale (1/8, 1/4, 1/2, 1) whose output still has at least this many
    /// pixels on the region's short side. `nil` decodes at full size. PNG, HEIF and AVIF
    /// always decode at full size.
    public var minimumShortSide: Int?
    /// When set together with ``minimumShortSide``, the chosen scale must also keep at least
    /// this many pixels on the region's long side. `nil`: no condition on the long side.
    public var minimumLongSide: Int?
    /// A smaller decode size for small images: when set, the region (at full resolution)
    /// has at most ``SmallImageSides/maxPixels`` pixels and ``minimumShortSide`` /
    /// ``minimumLongSide`` already shrink it (a scale below 1/1), the smaller scale its
    /// sides allow is used. An image that those minimums decode whole stays whole. `nil`
    /// (the default): no such rule.
    public var smallImageSides: SmallImageSides?

    /// The decode size ``DecodeOptions/smallImageSides`` gives images of at most
    /// ``maxPixels`` pixels.
    public struct SmallImageSides: Sendable, Hashable {
        /// Largest region, in pixels at full resolution, the rule applies to.
        public var maxPixels: Int
        /// Smallest short side, in pixels, kept by the DCT scale (as ``DecodeOptions/minimumShortSide``).
        public var minimumShortSide: Int
        /// Smallest long side, in pixels, kept by the DCT scale (as ``DecodeOptions/minimumLongSide``).
        public var minimumLongSide: Int

        /// Creates the rule; every value must be positive (checked by the decoder).
        public init(maxPixels: Int, minimumShortSide: Int, minimumLongSide: Int) {
            self.maxPixels = maxPixels
            self.minimumShortSide = minimumShortSide
            self.minimumLongSide = minimumLongSide
        }
    }
    /// Turn the result upright according to the EXIF orientation tag (default `true`).
    /// When false, pixels and region are in the stored orientation. A HEIF/AVIF's own
    /// `irot`/`imir`/`clap` are part of its image and always applied (by libheif).
    public var applyOrientation: Bool
    /// Largest declared `width × height` accepted, checked from the header before any
    /// pixel memory is allocated (default 150 000 000). It also bounds the codecs' working
    /// memory (a progressive JPEG's coefficient buffer: at most 8 bytes per allowed pixel)
    /// and a progressive JPEG's scans (scans × pixels at most 10⁹, at least 32 scans).
    public var maxPixels: Int
    /// Largest ratio of the long side to the short side accepted, checked from the header
    /// (default 100: a phone's scrolling screenshot is about 1:50). A streamed decode holds
    /// a few rows of floats of the source's width, so without this a 49,000,000×1 image
    /// under the pixel cap would need over a gigabyte; fingerprints resample to a square
    /// working size, so such a sliver carries nothing to search for anyway.
    public var maxAspectRatio: Int
    /// Return an image whose data is damaged (corrupt entropy data, premature end)
    /// instead of throwing; ``DecodedImage/damage`` then says what was wrong. Default `false`.
    public var allowDamaged: Bool
    /// Always produce ``PixelFormat/rgba8``. When false (the default) a grayscale JPEG
    /// decodes to ``PixelFormat/gray8``, a quarter of the memory; everything else is RGBA8.
    public var alwaysRGBA: Bool

    /// Creates options; every parameter has the documented default.
    public init(
        region: Region? = nil, minimumShortSide: Int? = nil, minimumLongSide: Int? = nil,
        smallImageSides: SmallImageSides? = nil, applyOrientation: Bool = true,
        maxPixels: Int = 150_000_000, maxAspectRatio: Int = 100, allowDamaged: Bool = false, alwaysRGBA: Bool = false
    ) {
        self.maxAspectRatio = maxAspectRatio
        self.region = region
        self.minimumShortSide = minimumShortSide
        self.minimumLongSide = minimumLongSide
        self.smallImageSides = smallImageSides
        self.applyOrientation = applyOrientation
        self.maxPixels = maxPixels
        self.allowDamaged = allowDamaged
        self.alwaysRGBA = alwaysRGBA
    }
}
