import Foundation

/// Colour filters of photo apps and old prints: a sepia "vintage" look with faded blacks and
/// a vignette, and a strong white-balance shift. O(pixels) each; alpha is never changed.
enum ColourFilters {
    /// Sepia toning (the classic matrix, mixed in by `strength` 0…1), blacks lifted to
    /// `fade` (0…255) with the whites kept, and a vignette darkening the corners by `vignette`
    /// (0…1: the fraction of brightness lost at the corners, falling off with the squared
    /// distance from the centre).
    static func sepiaVignette(_ image: RGBAImage, strength: Double, fade: Double, vignette: Double) -> RGBAImage {
        var out = image
        let cx = Double(image.width) / 2, cy = Double(image.height) / 2
        let reach = cx * cx + cy * cy
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                let r = Double(image.pixels[i]), g = Double(image.pixels[i + 1]), b = Double(image.pixels[i + 2])
                let sepia = (0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b)
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let light = 1 - vignette * (dx * dx + dy * dy) / reach
                func tone(_ original: Double, _ toned: Double) -> UInt8 {
                    let mixed = min(255, original + (toned - original) * strength)
                    return clamp((fade + mixed * (255 - fade) / 255) * light)
                }
                out.pixels[i] = tone(r, sepia.0)
                out.pixels[i + 1] = tone(g, sepia.1)
                out.pixels[i + 2] = tone(b, sepia.2)
            }
        }
        return out
    }

    /// Red, green and blue multiplied by `gains` (a warm light: red up, blue down; a cool
    /// one the opposite), clamped.
    static func whiteBalance(_ image: RGBAImage, gains: (red: Double, green: Double, blue: Double)) -> RGBAImage {
        var out = image
        let tables = [gains.red, gains.green, gains.blue].map { gain in (0..<256).map { clamp(Double($0) * gain) } }
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                p[i] = tables[0][Int(p[i])]
                p[i + 1] = tables[1][Int(p[i + 1])]
                p[i + 2] = tables[2][Int(p[i + 2])]
                i += 4
            }
        }
        return out
    }

    private static func clamp(_ v: Double) -> UInt8 {
        UInt8(min(255, max(0, v.rounded())))
    }
}
