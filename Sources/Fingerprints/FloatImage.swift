import PixelBuffers

/// A small image of `Float` samples in contiguous rows (no padding): the working
/// representation of the fingerprint pipeline (luma planes, area-averaged RGBA).
///
/// Samples are on the 0…255 scale of the 8-bit source. `channels` is 1 (luma) or
/// 4 (R, G, B, A interleaved).
public struct FloatImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Samples per pixel (1 or 4).
    public let channels: Int
    /// `height` rows of `width * channels` samples.
    public var samples: [Float]

    /// Wraps samples; `samples.count` must be `width * height * channels`.
    public init(width: Int, height: Int, channels: Int, samples: [Float]) {
        precondition(width > 0 && height > 0 && (channels == 1 || channels == 4), "bad FloatImage shape \(width)x\(height)x\(channels)")
        precondition(samples.count == width * height * channels, "FloatImage needs \(width * height * channels) samples, got \(samples.count)")
        self.width = width
        self.height = height
        self.channels = channels
        self.samples = samples
    }

    /// An all-zero image.
    public init(width: Int, height: Int, channels: Int) {
        self.init(width: width, height: height, channels: channels,
                  samples: [Float](repeating: 0, count: width * height * channels))
    }

    /// Samples per row.
    @inlinable public var rowLength: Int { width * channels }

    /// Sample `c` of pixel (x, y).
    @inlinable public subscript(x: Int, y: Int, c: Int = 0) -> Float {
        samples[(y * width + x) * channels + c]
    }

    /// A copy of the pixels inside `rect` (which must lie inside the image). O(rect area).
    public func cropped(to rect: PixelRect) -> FloatImage {
        precondition(!rect.isEmpty && rect.fits(width: width, height: height), "crop \(rect) outside \(width)x\(height)")
        if rect.x == 0 && rect.y == 0 && rect.width == width && rect.height == height { return self }
        var out = [Float]()
        out.reserveCapacity(rect.width * rect.height * channels)
        for y in rect.y..<(rect.y + rect.height) {
            let start = (y * width + rect.x) * channels
            out.append(contentsOf: samples[start..<(start + rect.width * channels)])
        }
        return FloatImage(width: rect.width, height: rect.height, channels: channels, samples: out)
    }

    /// The whole image as a rectangle.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
}
