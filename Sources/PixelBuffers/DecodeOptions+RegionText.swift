/// Why the text of a region does not name one (``DecodeOptions/Region/init(pixelsText:)``).
public struct RegionSyntaxError: Error, Sendable, Hashable {
    /// What is wrong, in words (without the option's or parameter's name).
    public var reason: String
}

extension DecodeOptions.Region {
    /// Largest pixel coordinate or side accepted in text (the decoders' own limits are lower).
    public static let maximumTextPixels = 1 << 20

    /// A region in whole pixels of the upright image, `x,y,w,h` with x,y ≥ 0 and w,h > 0:
    /// the one grammar of `--region` (query, inspect) and `region=` over HTTP.
    /// - Throws: ``RegionSyntaxError``. O(length of `text`).
    public init(pixelsText text: String) throws(RegionSyntaxError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingSpaces()) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
            throw RegionSyntaxError(reason: "must be x,y,w,h: four whole numbers (pixels of the upright image); got '\(text.prefix(80))'")
        }
        guard x >= 0, y >= 0 else { throw RegionSyntaxError(reason: "\(x),\(y),\(w),\(h): x and y must be 0 or more (pixels from the top-left corner)") }
        guard w > 0, h > 0 else { throw RegionSyntaxError(reason: "\(x),\(y),\(w),\(h): width and height must be positive") }
        let limit = Self.maximumTextPixels
        guard x <= limit, y <= limit, w <= limit, h <= limit else {
            throw RegionSyntaxError(reason: "\(x),\(y),\(w),\(h): each value must be at most \(limit)")
        }
        self = .pixels(PixelRect(x: x, y: y, width: w, height: h))
    }

    /// A region as fractions of the image's width and height, `x,y,w,h` in 0…1 with w,h > 0:
    /// the one grammar of `--region-fraction` and `region_fraction=`.
    /// - Throws: ``RegionSyntaxError``. O(length of `text`).
    public init(fractionsText text: String) throws(RegionSyntaxError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces()) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3] else {
            throw RegionSyntaxError(reason: "must be x,y,w,h: four numbers in 0…1; got '\(text.prefix(80))'")
        }
        guard [x, y, w, h].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
            throw RegionSyntaxError(reason: "\(text.prefix(80)): each value must be a fraction in 0…1")
        }
        guard w > 0, h > 0 else { throw RegionSyntaxError(reason: "\(text.prefix(80)): width and height must be positive") }
        self = .fractions(x: x, y: y, width: w, height: h)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
