/// Receives a decoded image one row at a time, from ``ImageDecoder/decodeRows(_:source:options:into:)``:
/// a consumer that only needs a reduction of the pixels (a downsampled working image, a
/// histogram) can then skip storing the whole image.
public protocol DecodedRowSink {
    /// Called once, before the first row, with the size and format of the rows to come.
    mutating func begin(width: Int, height: Int, format: PixelFormat)
    /// Called once per row, top to bottom, `y` counting from 0. `row` holds exactly
    /// `width × format.bytesPerPixel` bytes and is valid only during the call.
    mutating func consume(row: UnsafeBufferPointer<UInt8>, y: Int)
}

/// What ``ImageDecoder/decodeRows(_:source:options:into:)`` delivered to its sink.
public struct DecodedRows: Sendable, Hashable {
    /// What the header declared.
    public let info: ImageInfo
    /// Width of the rows, in pixels.
    public let width: Int
    /// Number of rows.
    public let height: Int
    /// Layout of each row.
    public let format: PixelFormat
    /// The DCT scale used (always ``DCTScale/full`` for PNG).
    public let scale: DCTScale
    /// Whether the rows came straight from the codec, with no image buffer in between
    /// (a whole non-interlaced PNG, or a whole JPEG, in its stored orientation); otherwise
    /// the image was decoded into a buffer first (same pixels).
    public let streamed: Bool

    /// Creates a summary (normally made by ``ImageDecoder``).
    public init(info: ImageInfo, width: Int, height: Int, format: PixelFormat, scale: DCTScale, streamed: Bool) {
        self.info = info
        self.width = width
        self.height = height
        self.format = format
        self.scale = scale
        self.streamed = streamed
    }
}
