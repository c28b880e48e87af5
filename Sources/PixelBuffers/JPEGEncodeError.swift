/// Why ``JPEGEncoder`` could not be made or could not compress a buffer.
public enum JPEGEncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The quality asked for is outside 1…100.
    case invalidQuality(Int)
    /// A side is longer than JPEG allows (65,500 pixels).
    case tooLarge(width: Int, height: Int)
    /// Memory for the compressed bytes could not be allocated.
    case outOfMemory
    /// libjpeg reported an error (its message).
    case codecFailed(String)

    /// One line naming the file or setting and the reason.
    public var description: String {
        switch self {
        case .invalidQuality(let q): "JPEG quality \(q) is outside 1…100"
        case .tooLarge(let w, let h): "a \(w)x\(h) image is too large for JPEG (at most 65500 pixels a side)"
        case .outOfMemory: "out of memory while encoding JPEG"
        case .codecFailed(let why): "JPEG encoding failed: \(why)"
        }
    }
}
