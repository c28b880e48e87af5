import Foundation

/// Geometric resampling of ``RGBAImage``s: area-average downscale, bilinear resize,
/// rotation and the perspective of a tilted print (``tilted(_:tiltDown:tiltRight:focalLength:margin:fill:)``). Pure functions of their inputs; O(output pixels) (area average: O(input)).
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

    /// The picture as a camera sees it printed on a flat sheet tilted away from it (a
    /// pinhole camera facing the sheet's centre, the sheet turned by `tiltDown` degrees about
    /// its horizontal axis, positive: the top edge leans away, then by `tiltRight` about its
    /// vertical axis, positive: the right edge leans away), framed with `margin` of the
    /// longer side around it, filled with `fill`. `focalLength` is in multiples of the
    /// picture's diagonal (0.8: a phone's main camera). At zero tilt the sheet keeps its size.
    /// - Complexity: O(output pixels).
    static func tilted(_ image: RGBAImage, tiltDown: Double, tiltRight: Double, focalLength: Double = 0.8, margin: Double = 0.04,
                       fill: (UInt8, UInt8, UInt8)) -> RGBAImage {
        let a = tiltDown * Double.pi / 180, b = tiltRight * Double.pi / 180
        let w = Double(image.width), h = Double(image.height)
        let f = focalLength * (w * w + h * h).squareRoot()
        // R = Ry(b) · Rx(a); a point (x, y, 0) of the sheet (centred, y down) lands at
        // R·(x, y, 0) + (0, 0, f) and projects to f·(X/Z, Y/Z): the homography M below.
        // With y pointing down, Rx(a) moves the top (y < 0) away (z grows) for a > 0, and
        // Ry(b) the right side (x > 0) for b > 0.
        let rx: [[Double]] = [[1, 0, 0], [0, cos(a), sin(a)], [0, -sin(a), cos(a)]]
        let ry: [[Double]] = [[cos(b), 0, -sin(b)], [0, 1, 0], [sin(b), 0, cos(b)]]
        var r = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 { for j in 0..<3 { r[i][j] = (0..<3).reduce(0) { $0 + ry[i][$1] * rx[$1][j] } } }
        let m: [[Double]] = [[f * r[0][0], f * r[0][1], 0], [f * r[1][0], f * r[1][1], 0], [r[2][0], r[2][1], f]]
        func project(_ x: Double, _ y: Double) -> (Double, Double) {
            let z = m[2][0] * x + m[2][1] * y + m[2][2]
            return ((m[0][0] * x + m[0][1] * y) / z, (m[1][0] * x + m[1][1] * y) / z)
        }
        let corners = [(-w / 2, -h / 2), (w / 2, -h / 2), (-w / 2, h / 2), (w / 2, h / 2)].map(project)
        let pad = margin * max(w, h)
        let left = corners.map(\.0).min()! - pad, top = corners.map(\.1).min()! - pad
        let width = max(1, Int((corners.map(\.0).max()! + pad - left).rounded(.up)))
        let height = max(1, Int((corners.map(\.1).max()! + pad - top).rounded(.up)))
        // The inverse homography (adjugate over determinant) maps the camera's pixels back.
        let inverse = Self.inverse3x3(m)
        var out = RGBAImage(width: width, height: height, fill: fill)
        for oy in 0..<height {
            let v = Double(oy) + 0.5 + top
            for ox in 0..<width {
                let u = Double(ox) + 0.5 + left
                let z = inverse[2][0] * u + inverse[2][1] * v + inverse[2][2]
                let x = (inverse[0][0] * u + inverse[0][1] * v + inverse[0][2]) / z
                let y = (inverse[1][0] * u + inverse[1][1] * v + inverse[1][2]) / z
                let o = (oy * width + ox) * 4
                sample(image, x + w / 2 - 0.5, y + h / 2 - 0.5, fill: fill) { c, value in out.pixels[o + c] = value }
            }
        }
        return out
    }

    /// The inverse of an invertible 3×3 matrix (rows). O(1).
    static func inverse3x3(_ m: [[Double]]) -> [[Double]] {
        let c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1], c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2], c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0]
        let det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02
        return [
            [c00 / det, (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det, (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det],
            [c01 / det, (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det, (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det],
            [c02 / det, (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det, (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det],
        ]
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
