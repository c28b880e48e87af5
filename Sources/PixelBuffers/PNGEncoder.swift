import CImageCodecs

/// Writes a ``PixelBuffer`` as lossless PNG bytes with libpng (RGBA8 as RGBA, Gray8 as
/// gray). Used to save exact copies of images, for example evaluation queries for other
/// tools. Stateless: safe to share across threads.
public struct PNGEncoder: Sendable, Hashable {
    /// Creates an encoder.
    public init() {}

    /// The PNG file bytes for `buffer`. O(pixels) plus zlib compression.
    ///
    /// - Throws: ``PNGEncodeError``.
    public func encode(_ buffer: PixelBuffer) throws(PNGEncodeError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = buffer.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                glimpse_png_encode(
                    raw.bindMemory(to: UInt8.self).baseAddress, UInt32(buffer.width), UInt32(buffer.height),
                    buffer.bytesPerRow, Int32(buffer.format.bytesPerPixel), &output, &outputSize,
                    text.baseAddress, text.count)
            }
        }
        defer { glimpse_png_encode_free(output) }
        guard status == GLIMPSE_PNG_ENCODE_OK, let output else {
            if status == GLIMPSE_PNG_ENCODE_MEMORY { throw .outOfMemory }
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .codecFailed(reason.isEmpty ? "status \(status.rawValue)" : reason)
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }
}

/// Why ``PNGEncoder`` could not write a buffer.
public enum PNGEncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Memory for the output could not be allocated.
    case outOfMemory
    /// libpng reported an error (its message).
    case codecFailed(String)

    /// One line naming the file or setting and the reason.
    public var description: String {
        switch self {
        case .outOfMemory: "out of memory while encoding PNG"
        case .codecFailed(let why): "PNG encoding failed: \(why)"
        }
    }
}
