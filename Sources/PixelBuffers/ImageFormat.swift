import CImageCodecs

/// An encoded image container Glimpse can decode, detected from the file's bytes.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Portable Network Graphics (libpng): every colour type and bit depth.
    case png
    /// JPEG / JFIF / EXIF (libjpeg-turbo), 8-bit precision.
    case jpeg
    /// WebP (libwebp): lossy, lossless, with alpha; an animation decodes to its first frame.
    case webp
    /// HEIF with HEVC images, i.e. HEIC (libheif + libde265): single images and grids, 8–12 bits.
    case heif
    /// AVIF: HEIF with AV1 images (libheif + dav1d/aom), 8–12 bits.
    case avif

    /// `"PNG"`, `"JPEG"`, `"WebP"`, `"HEIF"` or `"AVIF"`.
    public var description: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .heif: "HEIF"
        case .avif: "AVIF"
        }
    }

    /// Detects the format from the leading bytes (PNG signature, JPEG SOI marker,
    /// `RIFF….WEBP`, an ISO BMFF `ftyp` box with a HEIF or AVIF brand), never from a file
    /// name. Returns `nil` for anything else. A HEIF whose brands do not say which codec
    /// it holds is reported as ``heif``; ``ImageDecoder/info(of:source:)`` then names the
    /// codec from the primary image. O(size of the `ftyp` box), at most 4 KB.
    public static func detect<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        let head = Array(bytes.prefix(4096))
        let format = head.withUnsafeBufferPointer { glimpse_detect_format($0.baseAddress, $0.count) }
        return ImageFormat(format)
    }

    /// The shim's format code as a Swift value; `nil` for unknown.
    init?(_ format: glimpse_format) {
        switch format {
        case GLIMPSE_FORMAT_PNG: self = .png
        case GLIMPSE_FORMAT_JPEG: self = .jpeg
        case GLIMPSE_FORMAT_WEBP: self = .webp
        case GLIMPSE_FORMAT_HEIF: self = .heif
        case GLIMPSE_FORMAT_AVIF: self = .avif
        default: return nil
        }
    }
}
