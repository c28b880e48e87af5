import PixelBuffers

/// Why a thumbnail could not be made. Every case names the image file.
public enum ThumbnailError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The image could not be decoded (the decoder's one-line reason names the file).
    case decode(DecodeError)
    /// The thumbnail could not be encoded (file, encoder message).
    case encode(String, reason: String)
    /// The maximum side asked for is not positive.
    case invalidSize(Int)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .decode(let error): error.description
        case .encode(let path, let reason): "\(path): cannot encode thumbnail: \(reason)"
        case .invalidSize(let side): "thumbnail size \(side) must be positive"
        }
    }
}
