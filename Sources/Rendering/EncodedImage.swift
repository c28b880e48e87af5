/// Encoded image bytes with their media type, ready to save or inline.
public struct EncodedImage: Sendable, Hashable {
    /// The file bytes.
    public var bytes: [UInt8]
    /// `image/jpeg` or `image/png`.
    public var mediaType: String

    /// Creates an encoded image.
    public init(bytes: [UInt8], mediaType: String) {
        self.bytes = bytes
        self.mediaType = mediaType
    }

    /// A `data:` URI holding the image (base64), for self-contained HTML. O(bytes).
    public var dataURI: String {
        "data:\(mediaType);base64," + Data(bytes).base64EncodedString()
    }
}

import Foundation
