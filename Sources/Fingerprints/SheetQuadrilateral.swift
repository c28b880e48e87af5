/// The outline of a photographed sheet inside its plain border: the four corners of the
/// picture as the camera saw it (a keystone turns its rectangle into a quadrilateral), found
/// where the plain background ends. Rectifying that quadrilateral onto a square undoes any
/// tilt exactly, whatever its angle and direction, where the rings of ``ViewTilt``
/// hypotheses only come within half a step of it; a narrow picture (1:4, 1:8) gains most,
/// since its perspective is the least like that of a hypothesis modelled on the frame.
public struct SheetQuadrilateral: Sendable, Hashable {
    /// A corner, as a fraction of the frame's width and height (0…1, from the top left).
    public struct Corner: Sendable, Hashable {
        /// Fraction of the frame's width.
        public var x: Double
        /// Fraction of the frame's height.
        public var y: Double

        /// Creates a corner.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The corners: top left, top right, bottom right, bottom left.
    public var corners: [Corner]

    /// Creates a quadrilateral from its four corners (top left, top right, bottom right,
    /// bottom left, as fractions of the frame).
    public init(topLeft: Corner, topRight: Corner, bottomRight: Corner, bottomLeft: Corner) {
        corners = [topLeft, topRight, bottomRight, bottomLeft]
    }

    /// Least share of a row's (or column's) samples inside `box` that must differ from the
    /// background for it to count as crossing the sheet: lone noisy samples on the plain
    /// surface do not.
    static let crossingShare = 0.02

    /// The sheet's quadrilateral inside `box` (``PlainBorder/sheet(in:)``) of `luma`, or
    /// `nil` when it is not clear enough to trust: fewer than 8 samples a side, no sample
    /// apart from the background, or corners that do not make a convex quadrilateral whose
    /// sides each span at least half of the box. The background is the mean of the frame's
    /// corners and a sample belongs to the sheet when it lies more than
    /// ``PlainBorder/tolerance`` from it. Each corner is the extreme, in its diagonal
    /// direction, of the end points of the rows and columns that cross the sheet. A pure
    /// function of the samples. O(pixels in `box`).
    public init?(in luma: FloatImage, box: ViewRegion) {
        let (w, h) = (luma.width, luma.height)
        guard luma.channels == 1, w >= 8, h >= 8 else { return nil }
        let bounds = box.pixelBounds(width: w, height: h)
        guard bounds.width >= 8, bounds.height >= 8 else { return nil }
        let background = (luma.samples[0] + luma.samples[w - 1] + luma.samples[(h - 1) * w] + luma.samples[h * w - 1]) / 4
        let (x0, y0, x1, y1) = (bounds.x, bounds.y, bounds.x + bounds.width, bounds.y + bounds.height)
        let rowNeed = max(2, Int(Double(bounds.width) * Self.crossingShare)), columnNeed = max(2, Int(Double(bounds.height) * Self.crossingShare))
        // End points (continuous coordinates: a sample covers [i, i + 1)) of the crossing rows and columns.
        var points: [(x: Double, y: Double)] = []
        var columnFirst = [Int](repeating: -1, count: bounds.width), columnLast = [Int](repeating: -1, count: bounds.width)
        var columnCount = [Int](repeating: 0, count: bounds.width)
        luma.samples.withUnsafeBufferPointer { s in
            for y in y0..<y1 {
                var first = -1, last = -1, count = 0
                for x in x0..<x1 where abs(s[y * w + x] - background) > PlainBorder.tolerance {
                    if first < 0 { first = x }
                    last = x
                    count += 1
                    let c = x - x0
                    if columnFirst[c] < 0 { columnFirst[c] = y }
                    columnLast[c] = y
                    columnCount[c] += 1
                }
                if count >= rowNeed {
                    points.append((Double(first), Double(y) + 0.5))
                    points.append((Double(last + 1), Double(y) + 0.5))
                }
            }
        }
        for c in 0..<bounds.width where columnCount[c] >= columnNeed {
            points.append((Double(x0 + c) + 0.5, Double(columnFirst[c])))
            points.append((Double(x0 + c) + 0.5, Double(columnLast[c] + 1)))
        }
        guard !points.isEmpty else { return nil }
        // Extremes along the diagonals, in units of the box's sides (so a narrow box weighs
        // its two directions alike).
        let (bw, bh) = (Double(bounds.width), Double(bounds.height))
        func extreme(_ sx: Double, _ sy: Double) -> Corner {
            var best = points[0], bestValue = -Double.infinity
            for p in points {
                let value = sx * p.x / bw + sy * p.y / bh
                if value > bestValue { bestValue = value; best = p }
            }
            return Corner(x: best.x / Double(w), y: best.y / Double(h))
        }
        let corners = [extreme(-1, -1), extreme(1, -1), extreme(1, 1), extreme(-1, 1)]
        // Convex, turning one way, each side at least half of the box along its direction.
        var sign = 0.0
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4], c = corners[(i + 2) % 4]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            guard cross != 0, sign == 0 || (cross > 0) == (sign > 0) else { return nil }
            sign = cross
        }
        let (fw, fh) = (Double(box.width), Double(box.height))
        guard corners[1].x - corners[0].x >= fw / 2, corners[2].x - corners[3].x >= fw / 2,
              corners[3].y - corners[0].y >= fh / 2, corners[2].y - corners[1].y >= fh / 2 else { return nil }
        self.corners = corners
    }

    /// The projective map from a `width`×`height` plane holding the sheet rectified (its
    /// whole surface, facing) to a plane of the same size holding the frame (the frame shrunk
    /// in each direction independently), as the row-major 3×3 matrix
    /// ``ImageKernels/perspectiveWarp(_:mapping:using:)`` takes over pixel-centre
    /// coordinates. The unit square goes onto the quadrilateral (Heckbert's square-to-quad
    /// closed form). O(1).
    public func mapping(width: Int, height: Int) -> [Float] {
        let (W, H) = (Double(width), Double(height))
        let x = corners.map { $0.x * W }, y = corners.map { $0.y * H }
        // Unit square (u along the top edge, v along the left edge) → quadrilateral.
        let sx = x[0] - x[1] + x[2] - x[3], sy = y[0] - y[1] + y[2] - y[3]
        var (a, b, c, d, e, f, g, hh) = (x[1] - x[0], x[3] - x[0], x[0], y[1] - y[0], y[3] - y[0], y[0], 0.0, 0.0)
        let dx1 = x[1] - x[2], dx2 = x[3] - x[2], dy1 = y[1] - y[2], dy2 = y[3] - y[2]
        let den = dx1 * dy2 - dx2 * dy1
        if (sx != 0 || sy != 0) && den != 0 {
            g = (sx * dy2 - dx2 * sy) / den
            hh = (dx1 * sy - sx * dy1) / den
            (a, b, d, e) = (x[1] - x[0] + g * x[1], x[3] - x[0] + hh * x[3], y[1] - y[0] + g * y[1], y[3] - y[0] + hh * y[3])
        }
        // Output pixel centre (i, j) is (u, v) = ((i + ½)/W, (j + ½)/H); the source's pixel
        // centres sit half a pixel before its continuous coordinates.
        let (u1, u0, v1, v0) = (1 / W, 0.5 / W, 1 / H, 0.5 / H)
        let m0 = a * u1, m1 = b * v1, m2 = a * u0 + b * v0 + c
        let m3 = d * u1, m4 = e * v1, m5 = d * u0 + e * v0 + f
        let m6 = g * u1, m7 = hh * v1, m8 = g * u0 + hh * v0 + 1
        return [m0 - 0.5 * m6, m1 - 0.5 * m7, m2 - 0.5 * m8, m3 - 0.5 * m6, m4 - 0.5 * m7, m5 - 0.5 * m8, m6, m7, m8].map { Float($0) }
    }
}
