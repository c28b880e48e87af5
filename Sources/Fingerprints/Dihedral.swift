/// The eight symmetries of a square (rotations and flips), named as PDQ names them: the
/// orientations in which a picture can reach Glimpse (a photo that lost its EXIF
/// orientation, a scan put in the wrong way round, a mirrored selfie).
///
/// Each symmetry maps an image to a transformed image; ``sourceCell(row:column:rows:columns:)``
/// says, for a cell of the transformed grid, which cell of the original it shows, and
/// ``transformDCT(_:side:)`` transforms DCT coefficients exactly (a flip negates the odd
/// frequencies along its axis, a transpose swaps the axes), so every code of a view can be
/// derived for any orientation from the view's own transforms (see
/// ``FingerprintView/transformed(by:pdq:pHash:)``).
public enum Dihedral: String, Sendable, Hashable, CaseIterable, Codable {
    /// The image as it is.
    case original
    /// Rotated 90° counter-clockwise (PDQ `Rotate90`).
    case rotate90
    /// Rotated 180°.
    case rotate180
    /// Rotated 270° counter-clockwise, i.e. 90° clockwise (PDQ `Rotate270`).
    case rotate270
    /// Mirrored top to bottom (PDQ `FlipX`).
    case flipX
    /// Mirrored left to right (PDQ `FlipY`).
    case flipY
    /// Mirrored about the main diagonal (transposed, PDQ `FlipPlus1`).
    case flipPlus1
    /// Mirrored about the anti-diagonal (PDQ `FlipMinus1`).
    case flipMinus1

    /// Whether the transformed image's rows are the original's columns (90° and 270°
    /// rotations, both transposes).
    public var swapsAxes: Bool {
        switch self {
        case .rotate90, .rotate270, .flipPlus1, .flipMinus1: true
        case .original, .rotate180, .flipX, .flipY: false
        }
    }

    /// The cell of the original `rows`×`columns` grid that cell (`row`, `column`) of the
    /// transformed grid shows (the transformed grid is `columns`×`rows` when
    /// ``swapsAxes``). O(1).
    @inlinable
    public func sourceCell(row r: Int, column c: Int, rows: Int, columns: Int) -> (row: Int, column: Int) {
        switch self {
        case .original: (r, c)
        case .flipY: (r, columns - 1 - c)
        case .flipX: (rows - 1 - r, c)
        case .rotate180: (rows - 1 - r, columns - 1 - c)
        case .flipPlus1: (c, r)
        case .rotate90: (c, columns - 1 - r)
        case .rotate270: (rows - 1 - c, r)
        case .flipMinus1: (rows - 1 - c, columns - 1 - r)
        }
    }

    /// DCT-II coefficients of the transformed image from the original's: a `side`×`side`
    /// block, row = vertical frequency, index k meaning frequency k + 1 (PDQ's 16×16 and
    /// pHash's 8×8 both leave out the DC term). O(side²).
    public func transformDCT(_ coefficients: [Float], side n: Int) -> [Float] {
        precondition(coefficients.count == n * n, "a \(n)x\(n) block of coefficients")
        var b = [Float](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n {
                let a = coefficients[i * n + j]
                // Frequency i + 1 is odd when i is even.
                let oddV = i & 1 == 0, oddH = j & 1 == 0
                switch self {
                case .original: b[i * n + j] = a
                case .rotate90: b[j * n + i] = oddH ? -a : a
                case .rotate180: b[i * n + j] = oddV != oddH ? -a : a
                case .rotate270: b[j * n + i] = oddV ? -a : a
                case .flipX: b[i * n + j] = oddV ? -a : a
                case .flipY: b[i * n + j] = oddH ? -a : a
                case .flipPlus1: b[j * n + i] = a
                case .flipMinus1: b[j * n + i] = oddV != oddH ? -a : a
                }
            }
        }
        return b
    }

    /// The region of the transformed image covering what `region` covers in the original
    /// (fractions of the image). O(1).
    public func transform(_ region: ViewRegion) -> ViewRegion {
        // Corners of the region in the transformed image: map the two opposite corners.
        let x0 = region.x, y0 = region.y, x1 = region.x + region.width, y1 = region.y + region.height
        func map(_ x: Float, _ y: Float) -> (Float, Float) {
            switch self {
            case .original: (x, y)
            case .flipY: (1 - x, y)
            case .flipX: (x, 1 - y)
            case .rotate180: (1 - x, 1 - y)
            case .flipPlus1: (y, x)
            case .rotate90: (y, 1 - x)
            case .rotate270: (1 - y, x)
            case .flipMinus1: (1 - y, 1 - x)
            }
        }
        let (ax, ay) = map(x0, y0), (bx, by) = map(x1, y1)
        return ViewRegion(x: min(ax, bx), y: min(ay, by), width: abs(bx - ax), height: abs(by - ay))
    }
}

/// Which orientations of a query picture a search tries (``FingerprintViewLayout/query(orientations:)``).
public enum QueryOrientations: String, Sendable, Hashable, CaseIterable, Codable {
    /// The picture as it is.
    case upright
    /// As it is and mirrored left to right.
    case uprightAndMirror = "upright-mirror"
    /// All eight orientations of the dihedral group (rotations by 90°, 180°, 270°, both
    /// flips, both transposes). The default.
    case all

    /// The symmetries tried besides ``Dihedral/original``, in ``Dihedral/allCases`` order.
    public var extraTransforms: [Dihedral] {
        switch self {
        case .upright: []
        case .uprightAndMirror: [.flipY]
        case .all: Dihedral.allCases.filter { $0 != .original }
        }
    }
}
