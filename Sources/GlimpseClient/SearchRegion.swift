/// The part of an image to search, in the image's upright orientation.
public enum SearchRegion: Sendable, Equatable {
    /// A rectangle in pixels: `x`, `y` ≥ 0, `width`, `height` > 0.
    case pixels(x: Int, y: Int, width: Int, height: Int)
    /// A rectangle in fractions 0…1 of the image's width and height.
    case fraction(x: Double, y: Double, width: Double, height: Double)

    /// The `region` or `region_fraction` query parameter's text (`x,y,w,h`), after checking the
    /// numbers the server would refuse anyway.
    /// - Complexity: O(1).
    func parameterText() throws(GlimpseClientError) -> String {
        switch self {
        case .pixels(let x, let y, let width, let height):
            guard x >= 0, y >= 0, width > 0, height > 0 else {
                throw .invalidArgument(detail: "region \(x),\(y),\(width),\(height): x and y must be ≥ 0, width and height > 0")
            }
            return "\(x),\(y),\(width),\(height)"
        case .fraction(let x, let y, let width, let height):
            let values = [x, y, width, height]
            guard values.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }), width > 0, height > 0 else {
                throw .invalidArgument(detail: "region fraction \(values): each must be within 0…1, width and height > 0")
            }
            return values.map { "\($0)" }.joined(separator: ",")
        }
    }
}
