import PixelBuffers

/// Recognises image files by their first bytes, not their names. Only regular files are
/// read, without ever blocking (a FIFO named `p.jpg` is `.unreadable`, see ``FileBytes``).
enum ImageFileSniffer {
    /// What the first bytes of a file say it is.
    enum Verdict: Equatable {
        case png, jpeg, other
        /// Not a readable regular file; the reason names why (missing, FIFO, permission…).
        case unreadable(String)
    }

    /// Reads at most 8 bytes of `path`. O(1) I/O.
    static func sniff(path: String) -> Verdict {
        let bytes: [UInt8]
        switch FileBytes.head(ofFile: path, count: 8) {
        case .success(let head): bytes = head
        case .failure(let reason): return .unreadable(reason.description)
        }
        if bytes.count >= 8 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF { return .jpeg }
        return .other
    }
}
