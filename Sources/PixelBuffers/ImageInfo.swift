/// What an image header declares, read without decoding any pixel.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// Container format, detected from the bytes.
    public let format: ImageFormat
    /// Width of the pixels as stored, before EXIF orientation.
    public let storedWidth: Int
    /// Height of the pixels as stored, before EXIF orientation.
    public let storedHeight: Int
    /// EXIF orientation (JPEG APP1, PNG eXIf); ``ExifOrientation/up`` when absent.
    public let orientation: ExifOrientation
    /// Channels in the file: 1 gray, 2 gray+alpha, 3 colour, 4 colour+alpha or CMYK.
    public let components: Int
    /// Bits per sample in the file (PNG 1…16, JPEG 8).
    public let bitDepth: Int
    /// Interlaced PNG or progressive JPEG.
    public let isInterlaced: Bool
    /// Whether the pixels carry transparency (alpha channel or tRNS).
    public let hasAlpha: Bool

    /// Creates an info record (normally made by ``ImageDecoder``).
    public init(format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: ExifOrientation,
                components: Int, bitDepth: Int, isInterlaced: Bool, hasAlpha: Bool) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = orientation
        self.components = components
        self.bitDepth = bitDepth
        self.isInterlaced = isInterlaced
        self.hasAlpha = hasAlpha
    }

    /// Width of the upright picture (stored height for orientations 5–8).
    public var orientedWidth: Int { orientation.swapsAxes ? storedHeight : storedWidth }
    /// Height of the upright picture (stored width for orientations 5–8).
    public var orientedHeight: Int { orientation.swapsAxes ? storedWidth : storedHeight }
}
