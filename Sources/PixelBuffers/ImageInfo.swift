/// What an image header declares, read without decoding any pixel.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// Container format, detected from the bytes.
    public let format: ImageFormat
    /// Width of the pixels as stored, before EXIF orientation (HEIF/AVIF: after the file's
    /// own `clap`/`irot`/`imir` transformations).
    public let storedWidth: Int
    /// Height of the pixels as stored, before EXIF orientation.
    public let storedHeight: Int
    /// Orientation still to apply: EXIF (JPEG APP1, PNG eXIf, WebP EXIF chunk; in a HEIF/AVIF
    /// only when the primary image has no `irot`/`imir`, which libheif applies itself, so a
    /// rotation is never applied twice); ``ExifOrientation/up`` when absent.
    public let orientation: ExifOrientation
    /// Channels in the file: 1 gray, 2 gray+alpha, 3 colour, 4 colour+alpha or CMYK.
    public let components: Int
    /// Bits per sample in the file (PNG 1…16, JPEG and WebP 8, HEIF/AVIF 8, 10 or 12; decoded to 8).
    public let bitDepth: Int
    /// Interlaced PNG or progressive JPEG.
    public let isInterlaced: Bool
    /// Whether the pixels carry transparency (alpha channel or tRNS).
    public let hasAlpha: Bool
    /// Whether the primary image of a HEIF/AVIF is a grid of separately coded tiles.
    public let isGrid: Bool
    /// Frames of an animated WebP, or top-level images of a HEIF/AVIF (the primary one is
    /// decoded); 1 otherwise.
    public let imageCount: Int

    /// Creates an info record (normally made by ``ImageDecoder``).
    public init(format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: ExifOrientation,
                components: Int, bitDepth: Int, isInterlaced: Bool, hasAlpha: Bool,
                isGrid: Bool = false, imageCount: Int = 1) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
        self.components = components
        self.bitDepth = bitDepth
        self.isInterlaced = isInterlaced
        self.hasAlpha = hasAlpha
        self.isGrid = isGrid
        self.imageCount = imageCount
    }

    private enum CodingKeys: String, CodingKey {
        case format, storedWidth, storedHeight, orientation, components, bitDepth, isInterlaced, hasAlpha, isGrid, imageCount
    }

    /// Decodes an info record; `isGrid` and `imageCount` default to `false` and 1 when absent
    /// (records written before HEIF support).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(ImageFormat.self, forKey: .format)
        storedWidth = try c.decode(Int.self, forKey: .storedWidth)
        storedHeight = try c.decode(Int.self, forKey: .storedHeight)
        orientation = try c.decode(ExifOrientation.self, forKey: .orientation)
        components = try c.decode(Int.self, forKey: .components)
        bitDepth = try c.decode(Int.self, forKey: .bitDepth)
        isInterlaced = try c.decode(Bool.self, forKey: .isInterlaced)
        hasAlpha = try c.decode(Bool.self, forKey: .hasAlpha)
        isGrid = try c.decodeIfPresent(Bool.self, forKey: .isGrid) ?? false
        imageCount = try c.decodeIfPresent(Int.self, forKey: .imageCount) ?? 1
    }

    /// Width of the upright picture (stored height for orientations 5–8).
    public var orientedWidth: Int { orientation.swapsAxes ? storedHeight : storedWidth }
    /// Height of the upright picture (stored width for orientations 5–8).
    public var orientedHeight: Int { orientation.swapsAxes ? storedWidth : storedHeight }
}
