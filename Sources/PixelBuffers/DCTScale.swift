/// The factor by which a JPEG is shrunk inside the IDCT (libjpeg's `scale_num/8`).
///
/// Scaling in the DCT domain skips most of the inverse transform and all of the
/// upsampling work for the dropped pixels, so 1/8 is several times faster than a full
/// decode. PNG has no such scaling and always decodes at ``full``.
public enum DCTScale: Int, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// 1/8: one pixel per 8×8 block.
    case oneEighth = 1
    /// 1/4.
    case oneQuarter = 2
    /// 1/2.
    case oneHalf = 4
    /// 1/1: no scaling.
    case full = 8

    /// Numerator over 8 (1, 2, 4 or 8).
    @inlinable public var numerator: Int { rawValue }

    /// The scale as a number: 0.125, 0.25, 0.5 or 1.
    public var factor: Double { Double(rawValue) / 8 }

    /// `"1/8"`, `"1/4"`, `"1/2"` or `"1/1"`.
    public var description: String {
        switch self {
        case .oneEighth: "1/8"
        case .oneQuarter: "1/4"
        case .oneHalf: "1/2"
        case .full: "1/1"
        }
    }

    /// Size of an image dimension after scaling, as libjpeg computes it: `ceil(n * num / 8)`.
    @inlinable public func scaled(_ length: Int) -> Int { (length * rawValue + 7) / 8 }

    /// A full-resolution rectangle after scaling: edges rounded outward, clamped to the
    /// scaled image of the given full-resolution size, so no requested pixel is lost.
    public func scaled(_ rect: PixelRect, imageWidth: Int, imageHeight: Int) -> PixelRect {
        let x0 = rect.x * rawValue / 8
        let y0 = rect.y * rawValue / 8
        let x1 = min(scaled(rect.x + rect.width), scaled(imageWidth))
        let y1 = min(scaled(rect.y + rect.height), scaled(imageHeight))
        return PixelRect(x: x0, y: y0, width: max(x1 - x0, 1), height: max(y1 - y0, 1))
    }

    /// Orders scales from the smallest output (1/8) to full size.
    public static func < (lhs: DCTScale, rhs: DCTScale) -> Bool { lhs.rawValue < rhs.rawValue }
}
