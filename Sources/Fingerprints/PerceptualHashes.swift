import CSIMDKernels
import PixelBuffers

/// The three 64-bit hashes of a luma plane (or a region of it): average, difference and
/// DCT hash. All start with an exact area-averaging resample of the region
/// (``ImageKernels/areaResample(_:region:width:height:using:)``), so they do not depend on
/// the resolution of the source, and run the same on every ``InstructionSet``.
///
/// Bit `k` of a hash is `(hash >> k) & 1`.
public enum PerceptualHashes {
    /// aHash: the region averaged down to 8×8; bit `8r + c` (row r, column c) is set when
    /// that cell is brighter than the mean of the 64 cells. O(region pixels).
    public static func averageHash(luma: FloatImage, region: PixelRect? = nil, using isa: InstructionSet = .best) -> UInt64 {
        ImageKernels.areaResample(luma, region: region, width: 8, height: 8, using: isa).samples
            .withUnsafeBufferPointer { averageHash(grid8x8: $0) }
    }

    /// aHash bits of an 8×8 area-averaged grid. O(64).
    static func averageHash(grid8x8 g: UnsafeBufferPointer<Float>) -> UInt64 {
        var sum: Float = 0
        for v in g { sum += v }
        let mean = sum / 64
        var hash: UInt64 = 0
        for k in 0..<64 where g[k] > mean { hash |= 1 << UInt64(k) }
        return hash
    }

    /// dHash with row and column gradients: 32 bits each.
    /// - Bits 0…31, horizontal: the region averaged to 5 columns × 8 rows (`h`); bit
    ///   `4r + c` (r < 8, c < 4) is set when `h[r][c+1] > h[r][c]` (brighter to the right).
    /// - Bits 32…63, vertical: the region averaged to 8 columns × 5 rows (`v`); bit
    ///   `32 + 8r + c` (r < 4, c < 8) is set when `v[r+1][c] > v[r][c]` (brighter below).
    /// O(region pixels).
    public static func differenceHash(luma: FloatImage, region: PixelRect? = nil, using isa: InstructionSet = .best) -> UInt64 {
        let h = ImageKernels.areaResample(luma, region: region, width: 5, height: 8, using: isa).samples
        let v = ImageKernels.areaResample(luma, region: region, width: 8, height: 5, using: isa).samples
        return h.withUnsafeBufferPointer { h in v.withUnsafeBufferPointer { v in differenceHash(h: h, v: v) } }
    }

    /// dHash bits of the 5-column × 8-row grid `h` and the 8-column × 5-row grid `v`. O(64).
    static func differenceHash(h: UnsafeBufferPointer<Float>, v: UnsafeBufferPointer<Float>) -> UInt64 {
        var hash: UInt64 = 0
        for r in 0..<8 {
            for c in 0..<4 where h[r * 5 + c + 1] > h[r * 5 + c] { hash |= 1 << UInt64(4 * r + c) }
        }
        for r in 0..<4 {
            for c in 0..<8 where v[(r + 1) * 8 + c] > v[r * 8 + c] { hash |= 1 << UInt64(32 + 8 * r + c) }
        }
        return hash
    }

    /// pHash: the region averaged to 32×32, its 2-D DCT-II (``DCTMatrix/pHash``: frequencies
    /// 1…8 per side, so the DC term and the pure-DC rows are left out), and bit `8r + c` set
    /// when coefficient (r, c) exceeds the median (the 32nd smallest of the 64).
    /// O(region pixels + 32³).
    public static func dctHash(luma: FloatImage, region: PixelRect? = nil, using isa: InstructionSet = .best) -> UInt64 {
        dctHash(block32x32: dctHashBlock(luma: luma, region: region, using: isa), using: isa)
    }

    /// aHash, dHash and the 32×32 pHash block of one region, as the public functions compute
    /// them, with the 8-row vertical pass shared by the aHash grid and the horizontal dHash grid.
    static func codes(luma: FloatImage, region r: PixelRect, using isa: InstructionSet) -> (aHash: UInt64, dHash: UInt64, block: [Float]) {
        codes(luma: luma, region: r, weights: CodeWeights(width: r.width, height: r.height), using: isa)
    }

    /// The area weights ``codes(luma:region:weights:using:)`` resamples a `width`×`height`
    /// region with (8, 5 and 32 outputs per axis), built once per region size: a
    /// fingerprint's 24 coarse views all have one size. A class, so that handing it to each
    /// view is one reference count instead of one per table (the copies showed in profiles).
    final class CodeWeights: Sendable {
        let width: Int, height: Int
        let x8: AreaWeights, x5: AreaWeights, x32: AreaWeights
        let y8: AreaWeights, y5: AreaWeights, y32: AreaWeights

        init(width: Int, height: Int) {
            self.width = width
            self.height = height
            x8 = AreaWeights(source: width, target: 8)
            x5 = AreaWeights(source: width, target: 5)
            x32 = AreaWeights(source: width, target: 32)
            y8 = AreaWeights(source: height, target: 8)
            y5 = AreaWeights(source: height, target: 5)
            y32 = AreaWeights(source: height, target: 32)
        }
    }

    /// ``codes(luma:region:using:)`` with the weights of the region's size built once; the
    /// same operations, so the same bits.
    static func codes(luma: FloatImage, region r: PixelRect, weights k: CodeWeights,
                      using isa: InstructionSet) -> (aHash: UInt64, dHash: UInt64, block: [Float]) {
        precondition(k.width == r.width && k.height == r.height, "weights for \(k.width)x\(k.height), region \(r)")
        let rows8 = ImageKernels.verticalPass(luma, region: r, weights: k.y8, using: isa)
        let rows5 = ImageKernels.verticalPass(luma, region: r, weights: k.y5, using: isa)
        let rows32 = ImageKernels.verticalPass(luma, region: r, weights: k.y32, using: isa)
        return codes(rows8: rows8, rows5: rows5, rows32: rows32, offset: 0, stride: r.width, weights: k, using: isa)
    }

    /// The horizontal passes of ``codes(luma:region:weights:using:)`` over columns
    /// `offset ..< offset + k.width` of vertical passes `stride` floats wide, and the hashes.
    /// The aHash and dHash grids (144 floats) live on the stack; only the pHash block is
    /// allocated, since it is returned. O(rows × taps).
    private static func codes(rows8: [Float], rows5: [Float], rows32: [Float], offset: Int, stride: Int, weights k: CodeWeights,
                              using isa: InstructionSet) -> (aHash: UInt64, dHash: UInt64, block: [Float]) {
        let block = ImageKernels.resampleColumns(rows32, offset: offset, stride: stride, rows: 32, weights: k.x32, using: isa).samples
        let (aHash, dHash) = withUnsafeTemporaryAllocation(of: Float.self, capacity: 64 + 40 + 40) { grids in
            let a = UnsafeMutableBufferPointer(rebasing: grids[0..<64])
            let h = UnsafeMutableBufferPointer(rebasing: grids[64..<104])
            let v = UnsafeMutableBufferPointer(rebasing: grids[104..<144])
            ImageKernels.resampleColumns(rows8, offset: offset, stride: stride, rows: 8, weights: k.x8, into: a, using: isa)
            ImageKernels.resampleColumns(rows8, offset: offset, stride: stride, rows: 8, weights: k.x5, into: h, using: isa)
            ImageKernels.resampleColumns(rows5, offset: offset, stride: stride, rows: 5, weights: k.x8, into: v, using: isa)
            return (averageHash(grid8x8: UnsafeBufferPointer(a)), differenceHash(h: UnsafeBufferPointer(h), v: UnsafeBufferPointer(v)))
        }
        return (aHash, dHash, block)
    }

    /// The three vertical passes of ``codes(luma:region:weights:using:)`` (to 8, 5 and 32
    /// rows) over a horizontal band of a luma plane: rows `y ..< y + height`, columns
    /// `x ..< x + width`. Views with the same rows (the corner crops, a row of the coarse
    /// grid) slice it instead of each passing over its own columns: every column of a
    /// vertical pass is computed on its own, so a slice holds the same bits.
    struct CodeBand {
        let x: Int, width: Int
        let rows8: [Float], rows5: [Float], rows32: [Float]

        init(luma: FloatImage, x: Int, y: Int, width: Int, height: Int, weights k: CodeWeights, using isa: InstructionSet) {
            precondition(k.height == height, "weights for height \(k.height), band of height \(height)")
            let r = PixelRect(x: x, y: y, width: width, height: height)
            self.x = x
            self.width = width
            rows8 = ImageKernels.verticalPass(luma, region: r, weights: k.y8, using: isa)
            rows5 = ImageKernels.verticalPass(luma, region: r, weights: k.y5, using: isa)
            rows32 = ImageKernels.verticalPass(luma, region: r, weights: k.y32, using: isa)
        }
    }

    /// ``codes(luma:region:weights:using:)`` of `r` from a band holding its rows and columns:
    /// the same operations on the same values, so the same bits.
    static func codes(band b: CodeBand, region r: PixelRect, weights k: CodeWeights,
                      using isa: InstructionSet) -> (aHash: UInt64, dHash: UInt64, block: [Float]) {
        precondition(k.width == r.width && k.height == r.height, "weights for \(k.width)x\(k.height), region \(r)")
        precondition(r.x >= b.x && r.x + r.width <= b.x + b.width, "region \(r) outside the band \(b.x)+\(b.width)")
        return codes(rows8: b.rows8, rows5: b.rows5, rows32: b.rows32, offset: r.x - b.x, stride: b.width, weights: k, using: isa)
    }

    /// The 32×32 area-averaged luma block pHash transforms.
    public static func dctHashBlock(luma: FloatImage, region: PixelRect? = nil, using isa: InstructionSet = .best) -> [Float] {
        ImageKernels.areaResample(luma, region: region, width: 32, height: 32, using: isa).samples
    }

    /// pHash of a 32×32 block made by ``dctHashBlock(luma:region:using:)``.
    public static func dctHash(block32x32 block: [Float], using isa: InstructionSet = .best) -> UInt64 {
        dctHash(coefficients: dctCoefficients(block32x32: block, using: isa), using: isa)
    }

    /// The 8×8 DCT-II coefficients pHash thresholds (frequencies 1…8 per side, row =
    /// vertical frequency) of a 32×32 block. O(32³).
    public static func dctCoefficients(block32x32 block: [Float], using isa: InstructionSet = .best) -> [Float] {
        DCTMatrix.pHash.transform(block, using: isa)
    }

    /// pHash of 64 coefficients from ``dctCoefficients(block32x32:using:)``: bit `8r + c`
    /// set when coefficient (r, c) exceeds the median (the 32nd smallest). O(64 log 64).
    public static func dctHash(coefficients: [Float], using isa: InstructionSet = .best) -> UInt64 {
        precondition(coefficients.count == 64, "pHash has 8x8 coefficients")
        var hash: UInt64 = 0
        coefficients.withUnsafeBufferPointer { glimpse_median_bits_f32(isa.code, $0.baseAddress, 64, &hash) }
        return hash
    }

    /// `contrast(samples) < threshold`, decided without the latency of the exact left-to-right
    /// sums unless the figure is within rounding of the threshold (same answer, bit for bit).
    /// O(n).
    static func contrast(_ samples: [Float], isBelow threshold: Double, using isa: InstructionSet) -> Bool {
        samples.withUnsafeBufferPointer { glimpse_below_contrast(isa.code, $0.baseAddress, Int32($0.count), threshold) != 0 }
    }

    /// Standard deviation of the samples (luma levels, 0…255): the contrast measure that
    /// tells flat views from detailed ones (see ``Fingerprinter``). O(n), in Double.
    public static func contrast(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        let mean = samples.reduce(0.0) { $0 + Double($1) } / Double(samples.count)
        let variance = samples.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(samples.count)
        return variance.squareRoot()
    }
}
