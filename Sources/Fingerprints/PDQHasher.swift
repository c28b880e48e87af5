import CSIMDKernels
import PixelBuffers

/// Meta's PDQ perceptual hash, reimplemented on Glimpse's SIMD kernels.
///
/// Algorithm (as in Meta's reference C++, `pdq/cpp/hashing/pdqhashing.cpp`):
/// 1. luma `Y = 0.299R + 0.587G + 0.114B` as floats (``ImageKernels/luma(of:using:)-(PixelBuffer,_)``);
/// 2. Jarosz "tent" filter: two passes of box filters along rows then columns, window
///    `(n + 127) / 128` for a side of n pixels;
/// 3. decimate to 64×64 by sampling row `⌊(i + ½)·H/64⌋`, column `⌊(j + ½)·W/64⌋`;
/// 4. quality: sum over vertical and horizontal neighbours of `|⌊(u − v)·100/255⌋|`,
///    divided by 90, capped at 100;
/// 5. 2-D DCT-II keeping frequencies 1…16 per side (``DCTMatrix/pdq``);
/// 6. bit `16r + c` set when coefficient (r, c) exceeds the median (the 128th smallest
///    of the 256, as Torben's method returns).
/// Images smaller than 5 pixels on a side hash to zero with quality 0, as in PDQ.
///
/// Every step reproduces the reference's float operations in order, so given the same
/// luma the hash matches the reference bit for bit (tests allow ≤ 10 bits for decoder
/// differences, as the issue asks).
public struct PDQHasher: Sendable {
    /// The instruction set the kernels use (answers are identical on every set).
    public var instructionSet: InstructionSet

    /// Creates a hasher.
    public init(using isa: InstructionSet = .best) {
        self.instructionSet = isa
    }

    /// Smallest side PDQ hashes.
    public static let minimumSide = 5
    /// Box-filter passes of the Jarosz filter.
    public static let jaroszPasses = 2

    /// The result of hashing: the hash, the quality, and the 16×16 DCT it came from.
    public struct Result: Sendable, Hashable {
        /// The 256-bit hash.
        public var hash: PDQHash
        /// PDQ quality, 0…100.
        public var quality: Int
        /// The 16×16 DCT coefficients (row = vertical frequency), from which the
        /// dihedral variants derive.
        public var coefficients: [Float]
    }

    /// Hashes a pixel buffer at full resolution, exactly as the reference does when handed
    /// the decoded pixels. O(pixels). For a large buffer prefer ``Fingerprinter``, which
    /// first area-averages to a working size.
    public func hash(_ buffer: PixelBuffer) -> Result {
        hash(luma: ImageKernels.luma(of: buffer, using: instructionSet))
    }

    /// Hashes a luma plane (1 channel, 0…255). O(pixels).
    public func hash(luma: FloatImage) -> Result {
        var workspace = Workspace()
        return hash(luma: luma, region: luma.bounds, workspace: &workspace)
    }

    /// Buffers of the Jarosz filter, kept between calls so that hashing several regions of
    /// one plane (the views of a ``Fingerprinter``) allocates once; cache-line aligned
    /// (``AlignedFloats``), since the row filter writes whole vectors at each row start.
    /// Not shared between threads (each fingerprint makes its own).
    struct Workspace {
        let filtered = AlignedFloats(count: 64 * 64)
        let temporary = AlignedFloats(count: 64 * 64)
        let strips = AlignedFloats(count: 2 * 16 * 64)
        /// The 64×64 decimated plane the quality and the DCT read.
        let decimated = AlignedFloats(count: 64 * 64)
        /// A region's first row filter, read from ``PlaneStrips`` (views without a ``RowBand``).
        let rowsFiltered = AlignedFloats(count: 64 * 64)

        func reserve(rows: Int, columns: Int) {
            // Every kernel writes these buffers before reading them: no need to zero them.
            let planeSize = rows * max(columns, 64)
            filtered.reserve(planeSize)
            temporary.reserve(planeSize)
            strips.reserve(2 * 16 * columns)
        }
    }

    /// A luma plane transposed once into strips of 8 rows (`glimpse_plane_strips`), from which
    /// every region's first Jarosz row filter reads its rows (``RowBand`` and
    /// ``hash(luma:region:band:strips:workspace:)``) instead of transposing them again: the
    /// same bits on every path, but only faster where the kernels filter 8 rows per vector
    /// (``isWorthBuilding(for:)``). O(plane pixels), written once, read-only after.
    struct PlaneStrips {
        let width: Int, height: Int
        let samples: AlignedFloats

        /// Whether `isa` filters rows in vectors of 8 (AVX2, AVX-512), which read the strips
        /// as they are; the portable path gathers each row back out of them, slower than
        /// filtering the region's rows directly.
        static func isWorthBuilding(for isa: InstructionSet) -> Bool { isa.effective != .portable }

        /// The strips of a non-empty luma plane.
        init(luma: FloatImage, using isa: InstructionSet) {
            precondition(luma.channels == 1 && luma.width > 0 && luma.height > 0, "strips of a non-empty luma plane")
            width = luma.width
            height = luma.height
            samples = AlignedFloats(count: (luma.height + 7) / 8 * 8 * luma.width)
            luma.samples.withUnsafeBufferPointer { src in
                glimpse_plane_strips(isa.code, src.baseAddress, luma.width, Int32(luma.height), Int32(luma.width), samples.base)
            }
        }

        /// The first row filter of the `width`×`height` region at (`x`, `y`) of `luma` (the
        /// plane these strips were made of) into `out` (dense rows). `scratch` holds
        /// 24·width floats.
        func firstRows(of luma: FloatImage, x: Int, y: Int, width w: Int, height h: Int, into out: UnsafeMutablePointer<Float>,
                       scratch: UnsafeMutablePointer<Float>, using isa: InstructionSet) {
            precondition(luma.width == width && luma.height == height, "strips of another plane")
            precondition(PixelRect(x: x, y: y, width: w, height: h).fits(width: width, height: height),
                         "region outside \(width)x\(height)")
            glimpse_pdq_first_rows_from_strips(isa.code, samples.base, Int32(width), Int32(x), Int32(y), Int32(h), Int32(w),
                                               Int32(PDQHasher.windowSize(w)), out, scratch)
        }
    }

    /// The first row filter of the Jarosz filter over columns `x ..< x + width`, rows
    /// `y ..< y + height` of a luma plane. Rows are filtered independently, so the regions
    /// with exactly these columns (a column of the coarse grid) can share it. Written once
    /// by its initializer (cache-line aligned, like the workspace), read-only after.
    struct RowBand {
        let x: Int, y: Int, width: Int, height: Int
        let samples: AlignedFloats

        init(luma: FloatImage, x: Int, y: Int, width: Int, height: Int, strips: PlaneStrips? = nil, workspace: inout Workspace,
             using isa: InstructionSet) {
            precondition(PixelRect(x: x, y: y, width: width, height: height).fits(width: luma.width, height: luma.height),
                         "band outside \(luma.width)x\(luma.height)")
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            workspace.reserve(rows: height, columns: width)
            let samples = AlignedFloats(count: width * height)
            if let strips {
                strips.firstRows(of: luma, x: x, y: y, width: width, height: height, into: samples.base, scratch: workspace.strips.base,
                                 using: isa)
            } else {
                luma.samples.withUnsafeBufferPointer { src in
                    glimpse_pdq_first_rows(isa.code, src.baseAddress! + y * luma.width + x, luma.width, Int32(height),
                                           Int32(width), Int32(PDQHasher.windowSize(width)), samples.base, workspace.strips.base)
                }
            }
            self.samples = samples
        }
    }

    /// Hashes `region` of a luma plane in place (no copy of the region), reusing `workspace`.
    /// Same result as hashing a cropped copy. O(region pixels). With `band` (same columns as
    /// the region, rows around it), the first row filter is read from it; else with `strips`
    /// (of the same plane), that filter reads its rows from them: the same bits either way.
    func hash(luma: FloatImage, region r: PixelRect, band: RowBand? = nil, strips: PlaneStrips? = nil,
              workspace: inout Workspace) -> Result {
        precondition(luma.channels == 1, "PDQ hashes a luma plane")
        precondition(!r.isEmpty && r.fits(width: luma.width, height: luma.height), "region \(r) outside \(luma.width)x\(luma.height)")
        guard r.width >= Self.minimumSide, r.height >= Self.minimumSide else {
            return Result(hash: .zero, quality: 0, coefficients: [Float](repeating: 0, count: 256))
        }
        workspace.reserve(rows: r.height, columns: r.width)
        let (out, tmp, scratch) = (workspace.filtered.base, workspace.temporary.base, workspace.strips.base)
        // The Jarosz filter and the 64×64 decimation, the last pass only where it samples.
        let small = workspace.decimated.base
        if let b = band {
            precondition(b.x == r.x && b.width == r.width && r.y >= b.y && r.y + r.height <= b.y + b.height,
                         "region \(r) outside its row band")
            glimpse_pdq_filter_decimate_rows_done(
                instructionSet.code, b.samples.base + (r.y - b.y) * b.width, b.width,
                Int32(r.height), Int32(r.width), Int32(Self.windowSize(r.width)),
                Int32(Self.windowSize(r.height)), Int32(Self.jaroszPasses), small, out, tmp, scratch)
        } else if let strips {
            workspace.rowsFiltered.reserve(r.width * r.height)
            let rows = workspace.rowsFiltered.base
            strips.firstRows(of: luma, x: r.x, y: r.y, width: r.width, height: r.height, into: rows, scratch: scratch,
                             using: instructionSet)
            glimpse_pdq_filter_decimate_rows_done(
                instructionSet.code, rows, r.width, Int32(r.height), Int32(r.width), Int32(Self.windowSize(r.width)),
                Int32(Self.windowSize(r.height)), Int32(Self.jaroszPasses), small, out, tmp, scratch)
        } else {
            luma.samples.withUnsafeBufferPointer { src in
                glimpse_pdq_filter_decimate(instructionSet.code, src.baseAddress! + r.y * luma.width + r.x, luma.width,
                                            Int32(r.height), Int32(r.width), Int32(Self.windowSize(r.width)),
                                            Int32(Self.windowSize(r.height)), Int32(Self.jaroszPasses),
                                            small, out, tmp, scratch)
            }
        }
        let quality = Int(glimpse_pdq_quality64(small))
        // The filter is done with `temporary` (at least 64×64 floats): the DCT's 16×64
        // intermediate product goes there.
        let coefficients = DCTMatrix.pdq.transform(UnsafeBufferPointer(start: small, count: 64 * 64),
                                                   scratch: UnsafeMutableBufferPointer(start: tmp, count: 16 * 64),
                                                   using: instructionSet)
        return Result(hash: Self.bits(of: coefficients, using: instructionSet), quality: quality, coefficients: coefficients)
    }

    /// PDQ's Jarosz window for a side of `n` pixels downsampled to 64: `(n + 127) / 128`.
    public static func windowSize(_ n: Int) -> Int { (n + 2 * 64 - 1) / (2 * 64) }

    /// PDQ's 64×64 decimation (step 3) of a luma plane, for benchmarks and tools. O(64²).
    public static func decimate64(_ image: FloatImage) -> [Float] { decimate(image, to: 64) }

    /// Samples `side`×`side` pixels at `⌊(i + ½)·H/side⌋`, `⌊(j + ½)·W/side⌋`.
    static func decimate(_ image: FloatImage, to side: Int) -> [Float] {
        precondition(image.channels == 1, "PDQ decimates a luma plane")
        var out = [Float](repeating: 0, count: side * side)
        image.samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { o in
                glimpse_decimate_f32(src.baseAddress, image.width, Int32(image.height), Int32(image.width), Int32(side), o.baseAddress)
            }
        }
        return out
    }

    /// PDQ's image-domain quality metric of a 64×64 block, 0…100: the sum over vertical and
    /// horizontal neighbours of `|Int((u − v)·100/255)|` (in Float), divided by 90. O(64²).
    public static func quality(of64x64 b: [Float]) -> Int {
        precondition(b.count == 64 * 64, "PDQ quality needs a 64x64 block")
        return Int(b.withUnsafeBufferPointer { glimpse_pdq_quality64($0.baseAddress) })
    }

    /// Bit `16r + c` set where coefficient (r, c) exceeds the median of the 256.
    /// O(256): a vectorised selection of the median (`glimpse_median_bits_f32`), the same
    /// bits on every instruction set.
    public static func bits(of coefficients: [Float], using isa: InstructionSet = .best) -> PDQHash {
        precondition(coefficients.count == 256, "PDQ bits come from 16x16 coefficients")
        var words = SIMD4<UInt64>.zero
        withUnsafeMutableBytes(of: &words) { w in
            coefficients.withUnsafeBufferPointer {
                glimpse_median_bits_f32(isa.code, $0.baseAddress, 256, w.baseAddress!.assumingMemoryBound(to: UInt64.self))
            }
        }
        return PDQHash(words: words)
    }
}

extension PDQHasher.Result {
    /// The hash the reference computes for the transformed image, derived from this
    /// DCT alone (sign flips of odd frequencies and a transpose, ``Dihedral/transformDCT(_:side:)``),
    /// as PDQ does. O(256 log 256).
    public func hash(for transform: Dihedral) -> PDQHash {
        PDQHasher.bits(of: transform.transformDCT(coefficients, side: 16))
    }

    /// All eight dihedral hashes, in ``Dihedral/allCases`` order.
    public var dihedralHashes: [Dihedral: PDQHash] {
        Dictionary(uniqueKeysWithValues: Dihedral.allCases.map { ($0, hash(for: $0)) })
    }
}
