import Foundation

/// Geometric resampling of ``RGBAImage``s: area-average downscale, bilinear resize and
/// rotation. Pure functions of their inputs; O(output pixels) (area average: O(input)).
enum Resampling {
    /// Downscales by averaging every source pixel that falls in each output pixel's box
    /// (a box filter, like a camera or a browser shrinking a photo). Alpha is averaged too.
    static func areaAverage(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        precondition(width > 0 && height > 0 && width <= image.width && height <= image.height, "downscale only")
        var out = RGBAImage(width: width, height: height)
        for oy in 0..<height {
            let y0 = oy * image.height / height, y1 = max(y0 + 1, (oy + 1) * image.height / height)
            for ox in 0..<width {
                let x0 = ox * image.width / width, x1 = max(x0 + 1, (ox + 1) * image.width / width)
                var sum: (Int, Int, Int, Int) = (0, 0, 0, 0)
                for y in y0..<y1 {
                    var i = (y * image.width + x0) * 4
                    for _ in x0..<x1 {
                        sum.0 += Int(image.pixels[i])
                        sum.1 += Int(image.pixels[i + 1])
                        sum.2 += Int(image.pixels[i + 2])
                        sum.3 += Int(image.pixels[i + 3])
                        i += 4
                    }
                }
                let n = (y1 - y0) * (x1 - x0)
                let o = (oy * width + ox) * 4
                out.pixels[o] = UInt8((sum.0 + n / 2) / n)
                out.pixels[o + 1] = UInt8((sum.1 + n / 2) / n)
                out.pixels[o + 2] = UInt8((sum.2 + n / 2) / n)
                out.pixels[o + 3] = UInt8((sum.3 + n / 2) / n)
            }
        }
        return out
    }

    /// Resizes with bilinear interpolation, sampling at pixel centres (edges clamped).
    /// Good for small scale changes (stretch, fitting into a canvas).
    static func bilinear(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        precondition(width > 0 && height > 0, "positive size")
        var out = RGBAImage(width: width, height: height)
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        for oy in 0..<height {
            let fy = (Double(oy) + 0.5) * sy - 0.5
            for ox in 0..<width {
                let fx = (Double(ox) + 0.5) * sx - 0.5
                let o = (oy * width + ox) * 4
                sample(image, fx, fy, fill: nil) { c, v in out.pixels[o + c] = v }
            }
        }
        return out
    }

    /// Rotates by `degrees` (positive is counter-clockwise on screen) about the centre,
    /// keeping the size; pixels that come from outside the source are `fill`.
    static func rotated(_ image: RGBAImage, degrees: Double, fill: (UInt8, UInt8, UInt8)) -> RGBAImage {
        var out = RGBAImage(width: image.width, height: image.height, fill: fill)
        let angle = degrees * Double.pi / 180
        let c = cos(angle), s = sin(angle)
        let cx = Double(image.width) / 2, cy = Double(image.height) / 2
        for oy in 0..<image.height {
            let dy = Double(oy) + 0.5 - cy
            for ox in 0..<image.width {
                let dx = Double(ox) + 0.5 - cx
                // Inverse mapping: the source point that lands on (ox, oy). y grows downwards,
                // so a counter-clockwise turn on screen maps back with the transposed matrix.
                let fx = c * dx - s * dy + cx - 0.5
                let fy = s * dx + c * dy + cy - 0.5
                let o = (oy * image.width + ox) * 4
                sample(image, fx, fy, fill: fill) { ch, v in out.pixels[o + ch] = v }
            }
        }
        return out
    }

    /// Bilinear sample at fractional source coordinates (pixel centres at integers).
    /// With `fill == nil` coordinates are clamped to the image; otherwise points more than
    /// half a pixel outside yield `fill`.
    @inline(__always)
    private static func sample(_ image: RGBAImage, _ fx: Double, _ fy: Double, fill: (UInt8, UInt8, UInt8)?,
                               _ write: (Int, UInt8) -> Void) {
        let w = image.width, h = image.height
        if let fill, fx < -0.5 || fy < -0.5 || fx > Double(w) - 0.5 || fy > Double(h) - 0.5 {
            write(0, fill.0); write(1, fill.1); write(2, fill.2); write(3, 255)
            return
        }
        let x = min(max(fx, 0), Double(w - 1)), y = min(max(fy, 0), Double(h - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
        let ax = x - Double(x0), ay = y - Double(y0)
        let i00 = (y0 * w + x0) * 4, i10 = (y0 * w + x1) * 4, i01 = (y1 * w + x0) * 4, i11 = (y1 * w + x1) * 4
        for c in 0..<4 {
            let top = Double(image.pixels[i00 + c]) * (1 - ax) + Double(image.pixels[i10 + c]) * ax
            let bottom = Double(image.pixels[i01 + c]) * (1 - ax) + Double(image.pixels[i11 + c]) * ax
            write(c, UInt8(min(255, max(0, (top * (1 - ay) + bottom * ay).rounded()))))
        }
    }
}
