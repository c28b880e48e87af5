import PixelBuffers

/// Makes small previews of image files: decodes at the smallest JPEG DCT scale that still
/// covers the thumbnail (never the full 12 MP for a 160-pixel preview), box-filters down
/// to fit ``maxSide``, and encodes as JPEG (or PNG when the source has transparency).
///
/// Stateless value: safe to share across threads. Cost per image: one scaled decode,
/// O(decoded pixels) filtering, one small encode.
public struct Thumbnailer: Sendable, Hashable {
    /// Longest side of a thumbnail, in pixels.
    public var maxSide: Int
    /// JPEG quality, 1…100.
    public var jpegQuality: Int

    /// Creates a thumbnailer (default 160 pixels, JPEG quality 80).
    public init(maxSide: Int = 160, jpegQuality: Int = 80) {
        self.maxSide = maxSide
        self.jpegQuality = jpegQuality
    }

    /// The upright thumbnail pixels of the image at `path` (RGBA8), no side longer than
    /// ``maxSide`` (never enlarged).
    ///
    /// - Throws: ``ThumbnailError`` naming the file.
    public func pixels(file path: String) throws(ThumbnailError) -> (pixels: PixelBuffer, hasAlpha: Bool) {
        guard maxSide > 0 else { throw .invalidSize(maxSide) }
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder().decode(file: path, options: DecodeOptions(minimumShortSide: maxSide, alwaysRGBA: true))
        } catch { throw .decode(error) }
        return (Self.downsample(decoded.pixels, toFit: maxSide), decoded.info.hasAlpha)
    }

    /// The encoded thumbnail of the image at `path`: PNG when it has an alpha channel,
    /// JPEG otherwise.
    ///
    /// - Throws: ``ThumbnailError`` naming the file.
    public func thumbnail(file path: String) throws(ThumbnailError) -> EncodedImage {
        let (pixels, hasAlpha) = try self.pixels(file: path)
        return try Self.encode(pixels, asPNG: hasAlpha, jpegQuality: jpegQuality, name: path)
    }

    /// The thumbnail as lossless PNG (for `export --as png`).
    ///
    /// - Throws: ``ThumbnailError`` naming the file.
    public func pngThumbnail(file path: String) throws(ThumbnailError) -> EncodedImage {
        try Self.encode(try pixels(file: path).pixels, asPNG: true, jpegQuality: jpegQuality, name: path)
    }

    static func encode(_ pixels: PixelBuffer, asPNG: Bool, jpegQuality: Int, name: String) throws(ThumbnailError) -> EncodedImage {
        if asPNG {
            do { return EncodedImage(bytes: try PNGEncoder().encode(pixels), mediaType: "image/png") } catch {
                throw .encode(name, reason: error.description)
            }
        }
        do {
            return EncodedImage(bytes: try JPEGEncoder(quality: jpegQuality).encode(pixels), mediaType: "image/jpeg")
        } catch { throw .encode(name, reason: error.description) }
    }

    /// `buffer` shrunk to fit in `maxSide` × `maxSide`, keeping its aspect ratio, each
    /// output pixel the mean of the source pixels it covers (box filter). Returns the
    /// buffer as RGBA8 when it already fits. O(source pixels).
    public static func downsample(_ buffer: PixelBuffer, toFit maxSide: Int) -> PixelBuffer {
        let source = buffer.format == .rgba8 ? buffer : buffer.convertedToRGBA8()
        let longest = max(source.width, source.height)
        guard longest > maxSide, maxSide > 0 else { return source }
        let width = max(1, (source.width * maxSide + longest / 2) / longest)
        let height = max(1, (source.height * maxSide + longest / 2) / longest)
        var out = [UInt8](repeating: 0, count: width * height * 4)
        // Column ranges once; rows accumulate into per-column sums.
        let columns = (0..<width).map { ox in (ox * source.width / width)..<max(ox * source.width / width + 1, (ox + 1) * source.width / width) }
        source.withUnsafeBytes { raw in
            var sums = [UInt32](repeating: 0, count: width * 4)
            for oy in 0..<height {
                let y0 = oy * source.height / height
                let y1 = max(y0 + 1, (oy + 1) * source.height / height)
                for i in sums.indices { sums[i] = 0 }
                for y in y0..<y1 {
                    let row = y * source.bytesPerRow
                    for ox in 0..<width {
                        var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0, a: UInt32 = 0
                        for x in columns[ox] {
                            let p = row + x * 4
                            r += UInt32(raw[p]); g += UInt32(raw[p + 1]); b += UInt32(raw[p + 2]); a += UInt32(raw[p + 3])
                        }
                        sums[ox * 4] += r; sums[ox * 4 + 1] += g; sums[ox * 4 + 2] += b; sums[ox * 4 + 3] += a
                    }
                }
                for ox in 0..<width {
                    let count = UInt32(columns[ox].count * (y1 - y0))
                    for c in 0..<4 { out[(oy * width + ox) * 4 + c] = UInt8((sums[ox * 4 + c] + count / 2) / count) }
                }
            }
        }
        // The sizes are positive and the bytes exactly fill them: the layout is valid.
        return (try? PixelBuffer(format: .rgba8, width: width, height: height, bytes: out)) ?? source
    }
}
