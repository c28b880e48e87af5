import Foundation
import PixelBuffers

/// Recognises image files by their first bytes, not their names, through
/// ``ImageFormat/detect(_:)`` (the decoder's own detection).
enum ImageFileSniffer {
    /// What the first bytes of a file say it is.
    enum Verdict: Equatable {
        case image(ImageFormat), other, unreadable
    }

    /// Bytes read: enough for a HEIF/AVIF `ftyp` box with its compatible brands.
    static let headLength = 64

    /// Reads at most ``headLength`` bytes of `path`. O(1) I/O.
    static func sniff(path: String) -> Verdict {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .unreadable }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: headLength) else { return .unreadable }
        if let format = ImageFormat.detect([UInt8](data)) { return .image(format) }
        return .other
    }

    /// Whether `path` is a regular file (following symlinks).
    static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
