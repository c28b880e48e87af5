import Foundation

/// Separable Gaussian blur with edge clamping. O(pixels × kernel width).
enum GaussianBlur {
    /// Blurs every channel with a Gaussian of standard deviation `sigma` pixels
    /// (kernel radius ⌈3σ⌉). `sigma` must be positive.
    static func blurred(_ image: RGBAImage, sigma: Double) -> RGBAImage {
        precondition(sigma > 0, "positive sigma")
        let radius = Int((3 * sigma).rounded(.up))
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let w = image.width, h = image.height
        var horizontal = [Double](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var acc = 0.0
                    for k in -radius...radius {
                        let sx = min(max(x + k, 0), w - 1)
                        acc += kernel[k + radius] * Double(image.pixels[(y * w + sx) * 4 + c])
                    }
                    horizontal[(y * w + x) * 4 + c] = acc
                }
            }
        }
        var out = image
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var acc = 0.0
                    for k in -radius...radius {
                        let sy = min(max(y + k, 0), h - 1)
                        acc += kernel[k + radius] * horizontal[(sy * w + x) * 4 + c]
                    }
                    out.pixels[(y * w + x) * 4 + c] = UInt8(min(255, max(0, acc.rounded())))
                }
            }
        }
        return out
    }
}
