import Foundation
import PixelBuffers

/// What `glimpse inspect` prints about one decode, as text (``text()``) or as one JSON
/// object (``WireJSON``; snake_case keys like every wire format; golden file
/// `testdata/wire/inspect.json`).
public struct DecodeReportRecord: Sendable, Hashable, Codable {
    /// A rectangle in pixels.
    public struct Rect: Sendable, Hashable, Codable {
        /// Origin and size, in pixels.
        public let x: Int, y: Int, width: Int, height: Int
        /// The rectangle `r`.
        public init(_ r: PixelRect) { (x, y, width, height) = (r.x, r.y, r.width, r.height) }
    }
    /// The file as given (shown with its non-UTF-8 bytes escaped).
    public let file: String
    /// PNG, JPEG, WebP, HEIF or AVIF.
    public let format: String
    /// Colour components in the file.
    public let components: Int
    /// Bits per sample in the file (HEIF/AVIF 8, 10 or 12; the pixels are always 8-bit).
    public let bitDepth: Int
    /// A progressive JPEG or an interlaced PNG.
    public let interlaced: Bool
    /// Whether the HEIF/AVIF primary image is a grid of tiles.
    public let grid: Bool
    /// Frames of an animated WebP or top-level images of a HEIF/AVIF (the first / primary is decoded).
    public let imageCount: Int
    /// Width as stored, in pixels.
    public let storedWidth: Int
    /// Height as stored, in pixels.
    public let storedHeight: Int
    /// The EXIF orientation tag (1…8).
    public let orientation: Int
    /// Whether the pixels were turned upright.
    public let orientationApplied: Bool
    /// Width once upright, in pixels.
    public let orientedWidth: Int
    /// Height once upright, in pixels.
    public let orientedHeight: Int
    /// The region decoded, in the coordinates it was asked in.
    public let region: Rect
    /// The same region in stored coordinates.
    public let storedRegion: Rect
    /// The DCT scale used (1/8…1).
    public let scale: String
    /// Width of the decoded pixels.
    public let decodedWidth: Int
    /// Height of the decoded pixels.
    public let decodedHeight: Int
    /// `rgba8` or `gray8`.
    public let pixelFormat: String
    /// Reading and decoding, in milliseconds.
    public let decodeMilliseconds: Double
    /// The PAM file written, if any.
    public let dump: String?

    enum CodingKeys: String, CodingKey {
        case file, format, components, interlaced, grid, orientation, region, scale, dump
        case bitDepth = "bit_depth", imageCount = "image_count", storedWidth = "stored_width", storedHeight = "stored_height"
        case orientationApplied = "orientation_applied", orientedWidth = "oriented_width", orientedHeight = "oriented_height"
        case storedRegion = "stored_region", decodedWidth = "decoded_width", decodedHeight = "decoded_height"
        case pixelFormat = "pixel_format", decodeMilliseconds = "decode_ms"
    }

    /// The report of `image`, decoded from `file` in `milliseconds` (kept to 3 decimals),
    /// its pixels written to `dump` when given.
    public init(file: String, image: DecodedImage, milliseconds: Double, dump: String?) {
        let info = image.info
        self.file = file
        format = info.format.description
        components = info.components
        bitDepth = info.bitDepth
        interlaced = info.isInterlaced
        grid = info.isGrid
        imageCount = info.imageCount
        storedWidth = info.storedWidth
        storedHeight = info.storedHeight
        orientation = info.orientation.rawValue
        orientationApplied = image.appliedOrientation != .up
        orientedWidth = info.orientedWidth
        orientedHeight = info.orientedHeight
        region = Rect(image.region)
        storedRegion = Rect(image.storedRegion)
        scale = image.scale.description
        decodedWidth = image.pixels.width
        decodedHeight = image.pixels.height
        pixelFormat = image.pixels.format.rawValue
        decodeMilliseconds = (milliseconds * 1000).rounded() / 1000
        self.dump = dump
    }

    /// The aligned text form, one field per line. O(1).
    public func text() -> String {
        var kind: String
        switch format {
        case "JPEG": kind = interlaced ? "progressive" : "sequential"
        case "PNG": kind = interlaced ? "interlaced" : "non-interlaced"
        case "WebP": kind = imageCount > 1 ? "animated, \(imageCount) frames, first decoded" : "still"
        default: kind = (grid ? "grid" : "single image") + (imageCount > 1 ? ", primary of \(imageCount) images" : "")
        }
        let whole = region.x == 0 && region.y == 0 && region.width == (orientationApplied ? orientedWidth : storedWidth)
            && region.height == (orientationApplied ? orientedHeight : storedHeight)
        var lines = [
            "file:          \(file)",
            "format:        \(format), \(kind), \(components) component\(components == 1 ? "" : "s"), \(bitDepth)-bit",
            "stored size:   \(storedWidth)x\(storedHeight)",
            "orientation:   \(ExifOrientation(tag: orientation))\(orientationApplied ? ", applied" : orientation == 1 ? "" : ", not applied")",
            "oriented size: \(orientedWidth)x\(orientedHeight)",
            "region:        " + (whole ? "whole image" : "\(region.x),\(region.y) \(region.width)x\(region.height) (stored \(storedRegion.x),\(storedRegion.y) \(storedRegion.width)x\(storedRegion.height))"),
            "DCT scale:     \(scale)",
            "decoded size:  \(decodedWidth)x\(decodedHeight) \(pixelFormat)",
            "decode time:   \(String(format: "%.2f", decodeMilliseconds)) ms",
        ]
        if let dump { lines.append("dump:          \(dump)") }
        return lines.joined(separator: "\n")
    }
}
