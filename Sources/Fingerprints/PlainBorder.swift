/// The plain border a selection of a photographed print or screen leaves around the sheet:
/// rows and columns at each edge of the query's luma that hold nothing but the background
/// the sheet lies on (a table, a wall, a bezel), all of one brightness.
///
/// A tilt view (``ViewTilt``) rectifies the sheet it assumes fills the frame up to a margin;
/// when the selection's margin is far from the assumed one, the rectified picture is shifted
/// and scaled against the catalog's. Where the border is plain, it says where the sheet's
/// projection ends on each side, so ``ViewTilt/fitsPlainBorder`` views take that box instead
/// of a fixed margin. Narrow pictures gain most: a margin that is a fraction of the longer
/// side is four times that fraction of a 1:4 picture's width.
public enum PlainBorder {
    /// Largest difference from the background's brightness, on the 0…255 scale, of a sample
    /// that still counts as background (JPEG noise and a camera's grain on a flat surface
    /// stay within it; the edge of a picture seldom does).
    public static let tolerance: Float = 8
    /// Largest border on any side, as a fraction of that dimension: a wider "border" is
    /// more likely flat picture (a sky, a wall in the photo) than the surface around it.
    public static let largestFraction = 0.3

    /// The box inside the plain border of `luma`, as a fraction of its width and height, or
    /// `nil` when there is none to trust: the four corners differ (no one background), some
    /// side has no plain line at all, or some side's plain lines reach ``largestFraction``.
    /// A line is plain when at most 1 % of its samples (at least one) lie more than
    /// ``tolerance`` from the corners' mean. A pure function of the samples (the same on
    /// every instruction set). O(pixels of the border lines read).
    public static func sheet(in luma: FloatImage) -> ViewRegion? {
        let (w, h) = (luma.width, luma.height)
        guard luma.channels == 1, w >= 8, h >= 8 else { return nil }
        let corners: [Float] = [luma.samples[0], luma.samples[w - 1], luma.samples[(h - 1) * w], luma.samples[h * w - 1]]
        guard let low = corners.min(), let high = corners.max(), high - low <= Self.tolerance else { return nil }
        let background: Float = corners.reduce(0, +) / 4
        return luma.samples.withUnsafeBufferPointer { s -> ViewRegion? in
            func plain(start: Int, step: Int, count: Int) -> Bool {
                let allowed = max(1, count / 100)
                var outliers = 0
                var i = start
                for _ in 0..<count {
                    if abs(s[i] - background) > Self.tolerance {
                        outliers += 1
                        if outliers > allowed { return false }
                    }
                    i += step
                }
                return true
            }
            /// Plain lines from one edge inward; nil when they reach the largest border.
            func depth(lines: Int, _ isPlain: (Int) -> Bool) -> Int? {
                let limit = Int(Double(lines) * largestFraction)
                var n = 0
                while n < limit, isPlain(n) { n += 1 }
                return n > 0 && n < limit ? n : nil
            }
            guard let top = depth(lines: h, { plain(start: $0 * w, step: 1, count: w) }),
                  let bottom = depth(lines: h, { plain(start: (h - 1 - $0) * w, step: 1, count: w) }),
                  let left = depth(lines: w, { plain(start: $0, step: w, count: h) }),
                  let right = depth(lines: w, { plain(start: w - 1 - $0, step: w, count: h) }) else { return nil }
            return ViewRegion(x: Float(left) / Float(w), y: Float(top) / Float(h),
                              width: Float(w - left - right) / Float(w), height: Float(h - top - bottom) / Float(h))
        }
    }
}
