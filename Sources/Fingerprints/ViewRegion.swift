/// A sub-region of an image as fractions of its width and height (0…1), so the same
/// view means the same part of the picture at any resolution.
public struct ViewRegion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Left edge as a fraction of the width.
    public var x: Float
    /// Top edge as a fraction of the height.
    public var y: Float
    /// Width as a fraction of the width.
    public var width: Float
    /// Height as a fraction of the height.
    public var height: Float

    /// Creates a fractional region.
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole image.
    public static let full = ViewRegion(x: 0, y: 0, width: 1, height: 1)

    /// Whether every edge is finite, the size positive and the region inside 0…1
    /// (with a tolerance of 1e-4 for rounding).
    public var isValid: Bool {
        let eps: Float = 1e-4
        return x.isFinite && y.isFinite && width.isFinite && height.isFinite
            && width > 0 && height > 0 && x >= -eps && y >= -eps
            && x + width <= 1 + eps && y + height <= 1 + eps
    }

    /// The whole pixels this region covers in an image of the given size: edges rounded
    /// to the nearest pixel, at least 1×1, clamped inside the image.
    public func pixelBounds(width imageWidth: Int, height imageHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        func span(_ start: Float, _ length: Float, _ size: Int) -> (Int, Int) {
            let s = Int((Double(start) * Double(size)).rounded()).clamped(0, size - 1)
            let e = Int((Double(start + length) * Double(size)).rounded()).clamped(s + 1, size)
            return (s, e - s)
        }
        let (px, pw) = span(x, width, imageWidth)
        let (py, ph) = span(y, height, imageHeight)
        return (px, py, pw, ph)
    }

    /// One line for people, naming what and why.
    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}

extension Int {
    @inlinable func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
