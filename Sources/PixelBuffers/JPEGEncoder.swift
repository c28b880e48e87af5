import CImageCodecs

/// Compresses a ``PixelBuffer`` to baseline JPEG bytes with libjpeg (4:2:0 chroma
/// subsampling for colour; ``PixelFormat/gray8`` becomes a grayscale JPEG; alpha is dropped).
///
/// Used to make re-encoded copies of images, for example by the accuracy evaluation.
/// A value type with no state beyond its quality: safe to share across threads.
public struct JPEGEncoder: Sendable, Hashable {
    /// libjpeg quality, 1…100 (higher keeps more detail and makes bigger files).
    public let quality: Int

    /// Creates an encoder.
    ///
    /// - Throws: ``JPEGEncodeError/invalidQuality(_:)`` unless `1 <= quality <= 100`.
    public init(quality: Int) throws(JPEGEncodeError) {
        guard (1...100).contains(quality) else { throw .invalidQuality(quality) }
        self.quality = quality
    }

    /// The JPEG file bytes for `buffer`. O(pixels): one pass, plus the output copy.
    ///
    /// - Throws: ``JPEGEncodeError/tooLarge(width:height:)`` for sides over 65,500 pixels,
    ///   ``JPEGEncodeError/outOfMemory`` or ``JPEGEncodeError/codecFailed(_:)``.
    public func encode(_ buffer: PixelBuffer) throws(JPEGEncodeError) -> [UInt8] {
        guard buffer.width <= 65_500, buffer.height <= 65_500 else {
            throw .tooLarge(width: buffer.width, height: buffer.height)
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = buffer.withUnsafeBytes { raw in
            message.withUnsafeMutableBufferPointer { text in
                glimpse_jpeg_encode(
                    raw.bindMemory(to: UInt8.self).baseAddress, UInt32(buffer.width), UInt32(buffer.height),
                    buffer.bytesPerRow, Int32(buffer.format.bytesPerPixel), Int32(quality),
                    &output, &outputSize, text.baseAddress, text.count)
            }
        }
        defer { glimpse_jpeg_encode_free(output) }
        guard status == GLIMPSE_JPEG_ENCODE_OK, let output else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if status == GLIMPSE_JPEG_ENCODE_MEMORY { throw .outOfMemory }
            throw .codecFailed(reason.isEmpty ? "status \(status.rawValue)" : reason)
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }
}
