/// A rectangle of whole pixels: origin at the top-left corner, x to the right, y down.
public struct PixelRect: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Left edge, in pixels from the image's left edge.
    public var x: Int
    /// Top edge, in pixels from the image's top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a rectangle; no validation happens here (see ``PixelBuffer/region(_:)``).
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether the rectangle lies wholly inside an image of the given size.
    public func fits(width imageWidth: Int, height imageHeight: Int) -> Bool {
        x >= 0 && y >= 0 && width >= 0 && height >= 0
            && x <= imageWidth - width && y <= imageHeight - height
    }

    /// `X,Y,WxH` form, as used in messages.
    public var description: String { "\(x),\(y) \(width)x\(height)" }
}
