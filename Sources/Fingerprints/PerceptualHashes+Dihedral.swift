extension PerceptualHashes {
    /// The aHash of the transformed region: bit (r, c) of the transformed 8×8 grid is the
    /// original's bit at ``Dihedral/sourceCell(row:column:rows:columns:)``. Exact. O(64).
    public static func averageHash(_ hash: UInt64, transformedBy transform: Dihedral) -> UInt64 {
        BitMaps.averageHash[transform.tableIndex].apply(hash)
    }

    /// ``averageHash(_:transformedBy:)`` bit by bit (what ``BitMaps`` tabulates).
    fileprivate static func averageHashReference(_ hash: UInt64, transformedBy transform: Dihedral) -> UInt64 {
        var out: UInt64 = 0
        for r in 0..<8 {
            for c in 0..<8 {
                let s = transform.sourceCell(row: r, column: c, rows: 8, columns: 8)
                if hash >> UInt64(8 * s.row + s.column) & 1 != 0 { out |= 1 << UInt64(8 * r + c) }
            }
        }
        return out
    }

    /// The dHash of the transformed region. Each gradient bit compares two neighbouring
    /// cells; in the transformed image they are two neighbouring cells of the original's
    /// horizontal grid (5 columns × 8 rows) or, when the transform swaps the axes, of its
    /// vertical grid (8 columns × 5 rows). The bit is the original's bit for that pair,
    /// complemented when the pair is read the other way round (exact except where the two
    /// cells are equal: then both readings are 0). O(64).
    public static func differenceHash(_ hash: UInt64, transformedBy transform: Dihedral) -> UInt64 {
        BitMaps.differenceHash[transform.tableIndex].apply(hash)
    }

    /// ``differenceHash(_:transformedBy:)`` bit by bit (what ``BitMaps`` tabulates).
    fileprivate static func differenceHashReference(_ hash: UInt64, transformedBy transform: Dihedral) -> UInt64 {
        // Original bit between cells a and b of the horizontal (5 wide × 8 high) or vertical
        // (8 wide × 5 high) grid, as "b brighter than a".
        func gradient(_ a: (row: Int, column: Int), _ b: (row: Int, column: Int), horizontalGrid: Bool) -> Bool {
            if horizontalGrid {
                let bit = hash >> UInt64(4 * a.row + min(a.column, b.column)) & 1 != 0
                return b.column > a.column ? bit : !bit
            }
            let bit = hash >> UInt64(32 + 8 * min(a.row, b.row) + a.column) & 1 != 0
            return b.row > a.row ? bit : !bit
        }
        let swaps = transform.swapsAxes
        var out: UInt64 = 0
        // Transformed horizontal grid, 8 rows × 5 columns: from the original's horizontal
        // grid (8×5) or, transposed, its vertical grid (5 rows × 8 columns).
        let (hr, hc) = swaps ? (5, 8) : (8, 5)
        for r in 0..<8 {
            for c in 0..<4 {
                let a = transform.sourceCell(row: r, column: c, rows: hr, columns: hc)
                let b = transform.sourceCell(row: r, column: c + 1, rows: hr, columns: hc)
                if gradient(a, b, horizontalGrid: !swaps) { out |= 1 << UInt64(4 * r + c) }
            }
        }
        // Transformed vertical grid, 5 rows × 8 columns.
        let (vr, vc) = swaps ? (8, 5) : (5, 8)
        for r in 0..<4 {
            for c in 0..<8 {
                let a = transform.sourceCell(row: r, column: c, rows: vr, columns: vc)
                let b = transform.sourceCell(row: r + 1, column: c, rows: vr, columns: vc)
                if gradient(a, b, horizontalGrid: swaps) { out |= 1 << UInt64(32 + 8 * r + c) }
            }
        }
        return out
    }
}

/// Both code transforms above take each output bit from one input bit, complemented or not
/// (an affine bit map), so each is tabulated once per orientation from the bit-by-bit
/// reference: the image of 0 gives the complemented bits, the image of each single bit
/// where it goes. Applying a table gives the reference's answer for every hash.
private struct BitMap: Sendable {
    /// Input bit feeding output bit i (64 = none: the output bit is constant).
    var source = [UInt8](repeating: 64, count: 64)
    /// Output bits complemented (the image of 0).
    var constant: UInt64 = 0

    init(_ f: (UInt64) -> UInt64) {
        constant = f(0)
        for bit in 0..<64 {
            let moved = f(1 << UInt64(bit)) ^ constant
            for i in 0..<64 where moved >> UInt64(i) & 1 != 0 { source[i] = UInt8(bit) }
        }
    }

    func apply(_ hash: UInt64) -> UInt64 {
        var out = constant
        for i in 0..<64 where source[i] < 64 { out ^= (hash >> UInt64(source[i]) & 1) << UInt64(i) }
        return out
    }
}

private enum BitMaps {
    static let averageHash = Dihedral.allCases.map { t in BitMap { PerceptualHashes.averageHashReference($0, transformedBy: t) } }
    static let differenceHash = Dihedral.allCases.map { t in BitMap { PerceptualHashes.differenceHashReference($0, transformedBy: t) } }
}

extension Dihedral {
    /// Position in ``allCases`` (the tables' order). O(1).
    fileprivate var tableIndex: Int {
        switch self {
        case .original: 0
        case .rotate90: 1
        case .rotate180: 2
        case .rotate270: 3
        case .flipX: 4
        case .flipY: 5
        case .flipPlus1: 6
        case .flipMinus1: 7
        }
    }
}
