import Foundation

/// Per-pixel tone changes: brightness/contrast, gamma and grayscale. O(pixels) each,
/// through 256-entry lookup tables where possible; alpha is never changed.
enum ToneAdjustments {
    /// `v' = (v − 128) × contrast + 128 + brightness`, rounded and clamped to 0…255.
    static func brightnessContrast(_ image: RGBAImage, brightness: Double, contrast: Double) -> RGBAImage {
        var out = image
        out.mapChannels((0..<256).map { v in clamp((Double(v) - 128) * contrast + 128 + brightness) })
        return out
    }

    /// `v' = 255 × (v / 255)^gamma`: gamma > 1 darkens the mid-tones, < 1 lightens them.
    static func gamma(_ image: RGBAImage, _ gamma: Double) -> RGBAImage {
        var out = image
        out.mapChannels((0..<256).map { v in clamp(255 * pow(Double(v) / 255, gamma)) })
        return out
    }

    /// Replaces R, G and B by the luma `(77 R + 150 G + 29 B + 128) / 256` (BT.601 weights),
    /// so the three channels are equal.
    static func grayscale(_ image: RGBAImage) -> RGBAImage {
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let r: Int = 77 * Int(p[i])
                let g: Int = 150 * Int(p[i + 1])
                let b: Int = 29 * Int(p[i + 2])
                let y = UInt8(truncatingIfNeeded: (r + g + b + 128) >> 8)
                p[i] = y
                p[i + 1] = y
                p[i + 2] = y
                i += 4
            }
        }
        return out
    }

    private static func clamp(_ v: Double) -> UInt8 {
        UInt8(min(255, max(0, v.rounded())))
    }
}
