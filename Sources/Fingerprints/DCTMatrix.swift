import Foundation

/// The rows of a DCT-II basis used by the hashes, as PDQ builds them: row `i` (0-based)
/// holds frequency `i + 1` (the DC row is skipped), column `j` the input sample:
/// `D[i][j] = Float(Double(Float(sqrt(2/N))) · cos((π / 2 / N) · (i+1) · (2j+1)))`.
///
/// The 2-D transform of an N×N block A is `D · A · Dᵀ` (``transform(_:using:)``), giving
/// the `frequencies`×`frequencies` lowest non-DC coefficients.
public struct DCTMatrix: Sendable, Hashable {
    /// Number of input samples per side (N).
    public let size: Int
    /// Number of frequencies kept per side (1…frequencies).
    public let frequencies: Int
    /// `frequencies`×`size`, row-major.
    public let matrix: [Float]
    /// The transpose, `size`×`frequencies`, row-major.
    public let transposed: [Float]

    /// Builds the basis. O(size × frequencies).
    public init(size: Int, frequencies: Int) {
        precondition(size > 0 && frequencies > 0 && frequencies < size, "DCT needs 0 < frequencies < size")
        self.size = size
        self.frequencies = frequencies
        let scale = Float((2.0 / Double(size)).squareRoot())
        var m = [Float](repeating: 0, count: frequencies * size)
        for i in 0..<frequencies {
            for j in 0..<size {
                m[i * size + j] = Float(Double(scale) * cos((Double.pi / 2.0 / Double(size)) * Double(i + 1) * Double(2 * j + 1)))
            }
        }
        self.matrix = m
        self.transposed = ImageKernels.transpose(m, rows: frequencies, columns: size)
    }

    /// PDQ's basis: 64 samples, 16 frequencies.
    public static let pdq = DCTMatrix(size: 64, frequencies: 16)
    /// pHash's basis: 32 samples, 8 frequencies.
    public static let pHash = DCTMatrix(size: 32, frequencies: 8)

    /// `D · A · Dᵀ` of a row-major `size`×`size` block: `frequencies`² coefficients,
    /// row = vertical frequency, column = horizontal frequency. Sums run in PDQ's order.
    /// O(frequencies × size²).
    public func transform(_ block: [Float], using isa: InstructionSet = .best) -> [Float] {
        // The intermediate `frequencies`×`size` product in a temporary allocation (on the stack
        // when small).
        block.withUnsafeBufferPointer { b in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: frequencies * size) { transform(b, scratch: $0, using: isa) }
        }
    }

    /// ``transform(_:using:)`` of a block held anywhere, the intermediate `frequencies`×`size`
    /// product written to `scratch` (the PDQ hasher's workspace: 4 KB it need not allocate
    /// per view).
    func transform(_ block: UnsafeBufferPointer<Float>, scratch t: UnsafeMutableBufferPointer<Float>,
                   using isa: InstructionSet) -> [Float] {
        precondition(block.count == size * size, "DCT input must be \(size)x\(size)")
        let f = frequencies
        matrix.withUnsafeBufferPointer { d in
            ImageKernels.multiply(d, block, into: t, m: f, k: size, n: size, using: isa)
        }
        return [Float](unsafeUninitializedCapacity: f * f) { out, n in
            transposed.withUnsafeBufferPointer { dt in
                ImageKernels.multiply(UnsafeBufferPointer(t), dt, into: out, m: f, k: size, n: f, using: isa)
            }
            n = f * f
        }
    }
}
