import PixelBuffers

/// Recognises image files by their first bytes, not their names, through
/// ``ImageFormat/detect(_:)`` (the decoder's own detection). Only regular files are read,
/// without ever blocking (a FIFO named `p.jpg` is `.unreadable`, see ``FileBytes``).
enum ImageFileSniffer {
    /// What the first bytes of a file say it is.
    enum Verdict: Equatable {
        case image(ImageFormat), other
        /// Not a readable regular file; the reason names why (missing, FIFO, permission…).
        case unreadable(String)
    }

    /// Bytes read: enough for a HEIF/AVIF `ftyp` box with its compatible brands.
    static let headLength = 64

    /// Reads at most ``headLength`` bytes of `path`. O(1) I/O.
    static func sniff(path: String) -> Verdict {
        switch FileBytes.head(ofFile: path, count: headLength) {
        case .success(let head): ImageFormat.detect(head).map { .image($0) } ?? .other
        case .failure(let reason): .unreadable(reason.description)
        }
    }
}
