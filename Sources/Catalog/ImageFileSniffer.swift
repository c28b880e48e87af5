import Foundation

/// Recognises image files by their first bytes, not their names.
enum ImageFileSniffer {
    /// What the first bytes of a file say it is.
    enum Verdict: Equatable {
        case png, jpeg, other, unreadable
    }

    /// Reads at most 8 bytes of `path`. O(1) I/O.
    static func sniff(path: String) -> Verdict {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .unreadable }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 8) else { return .unreadable }
        let bytes = [UInt8](data)
        if bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF { return .jpeg }
        return .other
    }

    /// Whether `path` is a regular file (following symlinks).
    static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
