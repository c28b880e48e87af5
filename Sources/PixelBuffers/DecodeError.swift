/// Why an image could not be decoded. Every case carries `source`: the file path, or a
/// name for in-memory data, so ``description`` always says which input failed and why.
public enum DecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read (missing, a directory, no permission…);
    /// `reason` is the system's explanation.
    case unreadableFile(source: String, reason: String)
    /// The input has zero bytes.
    case emptyFile(source: String)
    /// The bytes are none of PNG, JPEG, WebP, HEIF, AVIF; `detail` names the leading bytes.
    case unrecognisedFormat(source: String, detail: String)
    /// The codec found invalid data (bad marker, checksum, Huffman code, chunk…).
    case corruptData(source: String, format: ImageFormat, reason: String)
    /// The data ends before the image does.
    case truncated(source: String, format: ImageFormat, reason: String)
    /// Valid data that Glimpse does not decode (12-bit JPEG, a HEIF item coded with a codec libheif lacks…).
    case unsupported(source: String, format: ImageFormat, reason: String)
    /// The declared `width × height` exceeds the ``DecodeOptions/maxPixels`` limit; refused
    /// before any pixel memory was allocated.
    case tooLarge(source: String, width: Int, height: Int, limit: Int)
    /// The declared long side is more than ``DecodeOptions/maxAspectRatio`` times the short
    /// side; refused before any pixel memory was allocated.
    case extremeAspectRatio(source: String, width: Int, height: Int, limit: Int)
    /// The requested region reaches outside the image (coordinates of the orientation
    /// the region was given in).
    case regionOutside(source: String, region: PixelRect, imageWidth: Int, imageHeight: Int)
    /// The requested region covers no pixel; `region` describes it as given.
    case emptyRegion(source: String, region: String)
    /// An option is invalid (non-finite fraction, non-positive minimum side…).
    case invalidOptions(source: String, reason: String)
    /// Memory for the pixels could not be allocated.
    case outOfMemory(source: String, reason: String)

    /// The file path or in-memory name of the input that failed.
    public var source: String {
        switch self {
        case .unreadableFile(let s, _), .emptyFile(let s), .unrecognisedFormat(let s, _),
             .corruptData(let s, _, _), .truncated(let s, _, _), .unsupported(let s, _, _),
             .tooLarge(let s, _, _, _), .extremeAspectRatio(let s, _, _, _), .regionOutside(let s, _, _, _), .emptyRegion(let s, _),
             .invalidOptions(let s, _), .outOfMemory(let s, _):
            s
        }
    }

    /// One line: `"<source>: <reason>"`.
    public var description: String {
        switch self {
        case .unreadableFile(let s, let reason): "\(s): cannot read file: \(reason)"
        case .emptyFile(let s): "\(s): empty file"
        case .unrecognisedFormat(let s, let detail): "\(s): unrecognised image format (\(detail))"
        case .corruptData(let s, let f, let reason): "\(s): corrupt \(f) data: \(reason)"
        case .truncated(let s, let f, let reason): "\(s): truncated \(f) file: \(reason)"
        case .unsupported(let s, let f, let reason): "\(s): unsupported \(f): \(reason)"
        case .tooLarge(let s, let w, let h, let limit):
            "\(s): image too large: declared \(w)x\(h) = \(UInt64(w) * UInt64(h)) pixels exceeds the limit of \(limit)"
        case .extremeAspectRatio(let s, let w, let h, let limit):
            "\(s): image too thin: declared \(w)x\(h), its long side is more than \(limit) times its short side"
        case .regionOutside(let s, let r, let w, let h):
            "\(s): region \(r) lies outside the \(w)x\(h) image"
        case .emptyRegion(let s, let r): "\(s): region \(r) is empty"
        case .invalidOptions(let s, let reason): "\(s): invalid decode options: \(reason)"
        case .outOfMemory(let s, let reason): "\(s): out of memory: \(reason)"
        }
    }
}
