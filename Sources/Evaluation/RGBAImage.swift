import PixelBuffers

/// A mutable, tightly packed RGBA8 image: the working form every transformation reads
/// and writes. Internal to the evaluation; converted to and from ``PixelBuffer``.
struct RGBAImage: Sendable, Equatable {
    /// Width in pixels (> 0).
    let width: Int
    /// Height in pixels (> 0).
    let height: Int
    /// `width * height * 4` bytes, rows top to bottom, R G B A per pixel.
    var pixels: [UInt8]

    /// A `width`×`height` image filled with one colour.
    init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8) = (0, 0, 0)) {
        precondition(width > 0 && height > 0, "an image has positive sides")
        self.width = width
        self.height = height
        var row = [UInt8](repeating: 255, count: width * 4)
        for x in 0..<width {
            row[4 * x] = fill.0
            row[4 * x + 1] = fill.1
            row[4 * x + 2] = fill.2
        }
        pixels = []
        pixels.reserveCapacity(width * height * 4)
        for _ in 0..<height { pixels.append(contentsOf: row) }
    }

    /// Wraps packed RGBA bytes; `pixels.count` must be `width * height * 4`.
    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "packed RGBA layout")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Copies `buffer` (RGBA8 or Gray8, any row padding) into packed RGBA8. O(pixels).
    init(_ buffer: PixelBuffer) {
        width = buffer.width
        height = buffer.height
        var out = [UInt8](repeating: 255, count: buffer.width * buffer.height * 4)
        switch buffer.format {
        case .rgba8:
            for y in 0..<buffer.height {
                buffer.withRow(y) { row in
                    out.withUnsafeMutableBufferPointer { dst in
                        let base = y * buffer.width * 4
                        for i in 0..<row.count { dst[base + i] = row[i] }
                    }
                }
            }
        case .gray8:
            for y in 0..<buffer.height {
                buffer.withRow(y) { row in
                    out.withUnsafeMutableBufferPointer { dst in
                        let base = y * buffer.width * 4
                        for x in 0..<row.count {
                            dst[base + 4 * x] = row[x]
                            dst[base + 4 * x + 1] = row[x]
                            dst[base + 4 * x + 2] = row[x]
                        }
                    }
                }
            }
        }
        pixels = out
    }

    /// The image as an RGBA8 ``PixelBuffer`` (shares the bytes, copy-on-write).
    var pixelBuffer: PixelBuffer {
        do {
            return try PixelBuffer(format: .rgba8, width: width, height: height, bytes: pixels)
        } catch {
            preconditionFailure("packed RGBA layout is valid by construction: \(error)")
        }
    }

    /// Channel `c` (0 R, 1 G, 2 B, 3 A) of pixel (x, y); coordinates must be inside.
    @inline(__always)
    func channel(_ x: Int, _ y: Int, _ c: Int) -> UInt8 {
        pixels[(y * width + x) * 4 + c]
    }

    /// Sets pixel (x, y) to an opaque colour; coordinates outside the image are ignored.
    @inline(__always)
    mutating func set(_ x: Int, _ y: Int, _ rgb: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 4
        pixels[i] = rgb.0
        pixels[i + 1] = rgb.1
        pixels[i + 2] = rgb.2
        pixels[i + 3] = 255
    }

    /// Fills the rectangle (clipped to the image) with an opaque colour.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ rgb: (UInt8, UInt8, UInt8)) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 { set(xx, yy, rgb) }
        }
    }

    /// Copies `other` with its top-left corner at (x, y), clipped to this image.
    mutating func paste(_ other: RGBAImage, x: Int, y: Int) {
        for sy in 0..<other.height {
            let dy = y + sy
            guard dy >= 0, dy < height else { continue }
            for sx in 0..<other.width {
                let dx = x + sx
                guard dx >= 0, dx < width else { continue }
                let s = (sy * other.width + sx) * 4, d = (dy * width + dx) * 4
                pixels[d] = other.pixels[s]
                pixels[d + 1] = other.pixels[s + 1]
                pixels[d + 2] = other.pixels[s + 2]
                pixels[d + 3] = other.pixels[s + 3]
            }
        }
    }

    /// Applies `table` to the R, G and B channels of every pixel (alpha unchanged). O(pixels).
    mutating func mapChannels(_ table: [UInt8]) {
        precondition(table.count == 256, "a lookup table has 256 entries")
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = table[Int(p[i])]
                p[i + 1] = table[Int(p[i + 1])]
                p[i + 2] = table[Int(p[i + 2])]
                i += 4
            }
        }
    }
}
