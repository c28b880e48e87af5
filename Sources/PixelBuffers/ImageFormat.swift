/// An encoded image container Glimpse can decode, detected from the file's bytes.
public enum ImageFormat: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Portable Network Graphics (libpng): every colour type and bit depth.
    case png
    /// JPEG / JFIF / EXIF (libjpeg-turbo), 8-bit precision.
    case jpeg

    /// `"PNG"` or `"JPEG"`.
    public var description: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        }
    }

    /// Detects the format from the leading bytes (PNG signature, JPEG SOI marker), never
    /// from a file name. Returns `nil` for anything else. O(1).
    public static func detect<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ImageFormat? {
        let head = Array(bytes.prefix(8))
        if head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        return nil
    }
}
