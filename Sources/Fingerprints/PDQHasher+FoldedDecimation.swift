import CSIMDKernels
import PixelBuffers

extension PDQHasher {
    /// Largest side, in pixels, of a region hashed by ``hashFolded(luma:)`` (the coarse
    /// views of ``FingerprintViewLayout/catalog``): at most 64 pixels, PDQ's 64×64 decimation
    /// only repeats samples, and its Jarosz window (``windowSize(_:)``) is 1, the identity.
    public static let foldedSide = 64

    /// Whether a `width`×`height` region is hashed by ``hashFolded(luma:)``: at least
    /// ``minimumSide`` and at most ``foldedSide`` pixels on each side.
    public static func isFolded(width: Int, height: Int) -> Bool {
        (minimumSide...foldedSide).contains(width) && (minimumSide...foldedSide).contains(height)
    }

    /// PDQ's DCT basis with its 64×64 decimation folded in, for a `width`×`height` region of
    /// at most 64×64 pixels. PDQ samples row `⌊(k + ½)·height/64⌋` of the region for row `k`
    /// of its 64×64 block, so the block's DCT `D · X · Dᵀ` equals `Dr · Y · Dcᵀ` on the
    /// region `Y` itself, where `Dr[i][m]` (16×height) is the sum, in ascending `k`, of the
    /// `D[i][k]` whose row `k` samples region row `m`, and `Dc` (16×width) the same for
    /// columns: 16·h·w + 16·16·h multiplications instead of 16·64·64 + 16·16·64.
    /// Immutable once built; a fingerprint builds one per coarse region size and shares it.
    public final class FoldedBasis: Sendable {
        /// Region width in pixels (1…64).
        public let width: Int
        /// Region height in pixels (1…64).
        public let height: Int
        /// `Dr`: 16 rows of `height` weights, row-major.
        let rows: [Float]
        /// `Dcᵀ`: `width` rows of 16 weights, row-major.
        let columnsTransposed: [Float]

        /// Folds ``DCTMatrix/pdq`` for a `width`×`height` region. O(16 × 64).
        public init(width: Int, height: Int) {
            precondition((1...PDQHasher.foldedSide).contains(width) && (1...PDQHasher.foldedSide).contains(height),
                         "a folded basis covers at most 64x64 pixels")
            self.width = width
            self.height = height
            rows = Self.fold(side: height, transposed: false)
            columnsTransposed = Self.fold(side: width, transposed: true)
        }

        /// `D·S` for a side of `n` ≤ 64 samples: 16×n (or its n×16 transpose), each entry the
        /// ascending sum of the basis entries whose sample lands on that pixel (PDQ's
        /// `⌊(k + ½)·n/64⌋`, computed in `Double` and truncated as `glimpse_decimate_f32` does).
        private static func fold(side n: Int, transposed: Bool) -> [Float] {
            [Float](unsafeUninitializedCapacity: 16 * n) { folded, count in
                folded.initialize(repeating: 0)
                DCTMatrix.pdq.matrix.withUnsafeBufferPointer { d in
                    for k in 0..<64 {
                        let m = Int(((Double(k) + 0.5) * Double(n)) / 64.0)
                        for i in 0..<16 { folded[transposed ? m * 16 + i : i * n + m] += d[i * 64 + k] }
                    }
                }
                count = 16 * n
            }
        }
    }

    /// The first half of ``hashFolded(luma:)``'s transform, `Y · Dcᵀ`, for every row of
    /// columns `x ..< x + basis.width` of a luma plane: the regions with exactly these
    /// columns (a column of the coarse grid) share it, each then needing only its 16×16
    /// `Dr · T` product. Written once by its initializer, read-only after.
    struct FoldedColumns {
        let x: Int, width: Int
        /// One row of 16 sums per plane row.
        let samples: [Float]

        /// The product for columns `x ..< x + basis.width` of every row of `luma`.
        /// O(luma rows × width × 16).
        init(luma: FloatImage, x: Int, basis: FoldedBasis, using isa: InstructionSet) {
            precondition(luma.channels == 1 && x >= 0 && x + basis.width <= luma.width, "columns outside the plane")
            self.x = x
            width = basis.width
            samples = [Float](unsafeUninitializedCapacity: luma.height * 16) { out, count in
                luma.samples.withUnsafeBufferPointer { src in
                    basis.columnsTransposed.withUnsafeBufferPointer { dct in
                        glimpse_matmul_f32(isa.code, src.baseAddress! + x, luma.width, dct.baseAddress, 16, out.baseAddress, 16,
                                           Int32(luma.height), Int32(basis.width), 16)
                    }
                }
                count = luma.height * 16
            }
        }
    }

    /// PDQ of a luma plane of at most 64×64 pixels (and at least ``minimumSide``): its Jarosz
    /// filter skipped (a window of 1 is the identity), the quality of its 64×64 decimation
    /// (counted on the plane itself, `glimpse_pdq_quality_folded`), and the DCT with the decimation folded into the basis (``FoldedBasis``). The same
    /// hash as ``hash(luma:)`` up to float rounding in the coefficients (which can flip a
    /// bit whose coefficient sits at the median); the quality is exactly that of the
    /// unfiltered decimation. What the catalog layout's coarse views are hashed with.
    /// O(width × height × 16).
    public func hashFolded(luma: FloatImage) -> Result {
        precondition(luma.channels == 1 && Self.isFolded(width: luma.width, height: luma.height),
                     "folded PDQ needs a luma plane of 5...64 pixels per side")
        let basis = FoldedBasis(width: luma.width, height: luma.height)
        return hashFolded(luma: luma, region: luma.bounds,
                          columns: FoldedColumns(luma: luma, x: 0, basis: basis, using: instructionSet), basis: basis)
    }

    /// ``hashFolded(luma:)`` of `region` of a plane, in place, from its columns' shared
    /// product. O(region pixels + 16 × 16 × region height).
    func hashFolded(luma: FloatImage, region r: PixelRect, columns: FoldedColumns, basis: FoldedBasis) -> Result {
        precondition(luma.channels == 1 && r.fits(width: luma.width, height: luma.height), "region \(r) outside the plane")
        precondition(columns.x == r.x && columns.width == r.width && basis.width == r.width && basis.height == r.height,
                     "folded product of other columns or another size")
        let quality = luma.samples.withUnsafeBufferPointer { src in
            Int(glimpse_pdq_quality_folded(instructionSet.code, src.baseAddress! + r.y * luma.width + r.x, luma.width,
                                           Int32(r.height), Int32(r.width)))
        }
        let coefficients = [Float](unsafeUninitializedCapacity: 256) { out, count in
            basis.rows.withUnsafeBufferPointer { dr in
                columns.samples.withUnsafeBufferPointer { t in
                    glimpse_matmul_f32(instructionSet.code, dr.baseAddress, r.height, t.baseAddress! + r.y * 16, 16,
                                       out.baseAddress, 16, 16, Int32(r.height), 16)
                }
            }
            count = 256
        }
        return Result(hash: Self.bits(of: coefficients, using: instructionSet), quality: quality, coefficients: coefficients)
    }
}
