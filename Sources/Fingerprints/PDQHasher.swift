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
        precondition(luma.channels == 1, "PDQ hashes a luma plane")
        guard luma.width >= Self.minimumSide, luma.height >= Self.minimumSide else {
            return Result(hash: .zero, quality: 0, coefficients: [Float](repeating: 0, count: 256))
        }
        var blurred = luma
        ImageKernels.jaroszFilter(&blurred, windowAlongRows: Self.windowSize(luma.width), windowAlongColumns: Self.windowSize(luma.height),
                                  passes: Self.jaroszPasses, using: instructionSet)
        let small = Self.decimate(blurred, to: 64)
        let quality = Self.quality(of64x64: small)
        let coefficients = DCTMatrix.pdq.transform(small, using: instructionSet)
        return Result(hash: Self.bits(of: coefficients), quality: quality, coefficients: coefficients)
    }

    /// PDQ's Jarosz window for a side of `n` pixels downsampled to 64: `(n + 127) / 128`.
    public static func windowSize(_ n: Int) -> Int { (n + 2 * 64 - 1) / (2 * 64) }

    /// PDQ's 64×64 decimation (step 3) of a luma plane, for benchmarks and tools. O(64²).
    public static func decimate64(_ image: FloatImage) -> [Float] { decimate(image, to: 64) }

    /// Samples `side`×`side` pixels at `⌊(i + ½)·H/side⌋`, `⌊(j + ½)·W/side⌋`.
    static func decimate(_ image: FloatImage, to side: Int) -> [Float] {
        var out = [Float](repeating: 0, count: side * side)
        for i in 0..<side {
            let y = Int(((Double(i) + 0.5) * Double(image.height)) / Double(side))
            for j in 0..<side {
                let x = Int(((Double(j) + 0.5) * Double(image.width)) / Double(side))
                out[i * side + j] = image.samples[y * image.width + x]
            }
        }
        return out
    }

    /// PDQ's image-domain quality metric of a 64×64 block, 0…100.
    public static func quality(of64x64 b: [Float]) -> Int {
        var sum = 0
        for i in 0..<63 {
            for j in 0..<64 {
                sum += abs(Int(((b[i * 64 + j] - b[(i + 1) * 64 + j]) * 100) / 255))
            }
        }
        for i in 0..<64 {
            for j in 0..<63 {
                sum += abs(Int(((b[i * 64 + j] - b[i * 64 + j + 1]) * 100) / 255))
            }
        }
        return min(sum / 90, 100)
    }

    /// Bit `16r + c` set where coefficient (r, c) exceeds the median of the 256.
    public static func bits(of coefficients: [Float]) -> PDQHash {
        precondition(coefficients.count == 256, "PDQ bits come from 16x16 coefficients")
        let median = coefficients.sorted()[127]
        var words = SIMD4<UInt64>.zero
        for k in 0..<256 where coefficients[k] > median {
            words[k >> 6] |= 1 << UInt64(k & 63)
        }
        return PDQHash(words: words)
    }
}

/// The eight symmetries of a square (rotations and flips), named as PDQ names them.
public enum Dihedral: String, Sendable, Hashable, CaseIterable {
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
}

extension PDQHasher.Result {
    /// The hash the reference computes for the transformed image, derived from this
    /// DCT alone (sign flips of odd frequencies and a transpose), as PDQ does. O(256 log 256).
    public func hash(for transform: Dihedral) -> PDQHash {
        var b = [Float](repeating: 0, count: 256)
        for i in 0..<16 {
            for j in 0..<16 {
                let a = coefficients[i * 16 + j]
                switch transform {
                case .original: b[i * 16 + j] = a
                case .rotate90: b[j * 16 + i] = (j & 1) == 1 ? a : -a
                case .rotate180: b[i * 16 + j] = ((i + j) & 1) == 1 ? -a : a
                case .rotate270: b[j * 16 + i] = (i & 1) == 1 ? a : -a
                case .flipX: b[i * 16 + j] = (i & 1) == 1 ? a : -a
                case .flipY: b[i * 16 + j] = (j & 1) == 1 ? a : -a
                case .flipPlus1: b[j * 16 + i] = a
                case .flipMinus1: b[j * 16 + i] = ((i + j) & 1) == 1 ? -a : a
                }
            }
        }
        return PDQHasher.bits(of: b)
    }

    /// All eight dihedral hashes, in ``Dihedral/allCases`` order.
    public var dihedralHashes: [Dihedral: PDQHash] {
        Dictionary(uniqueKeysWithValues: Dihedral.allCases.map { ($0, hash(for: $0)) })
    }
}
