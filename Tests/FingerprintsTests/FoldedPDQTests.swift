import Foundation
import InstructionSetTesting
import SyntheticData
import Testing
import Fingerprints

/// PDQ of planes of at most 64×64 pixels with the 64×64 decimation folded into the DCT
/// (`PDQHasher.hashFolded`, the catalog's coarse views): the same quality as the decimated
/// block, exactly; the same DCT up to float rounding; the same bits on every path.
@Suite struct FoldedPDQTests {
    /// A `width`×`height` luma plane: smooth (low quality, so no early stop in the quality
    /// sum), noisy (the sum saturates) or stepped (many equal neighbours and exact levels).
    static func plane(width: Int, height: Int, kind: Int, seed: UInt64) -> FloatImage {
        var rng = SeededGenerator(seed: seed)
        let samples = (0..<width * height).map { i -> Float in
            let x = Float(i % width), y = Float(i / width)
            switch kind {
            case 0: return 100 + 40 * sin(x * 0.11 + y * 0.07) + Float(rng.next() % 1000) / 1000
            case 1: return Float(rng.next() % 25_600) / 100
            default: return Float((Int(x) / 3 + Int(y) / 5) % 4) * 51 + (rng.next() % 7 == 0 ? 0.5 : 0)
            }
        }
        return FloatImage(width: width, height: height, channels: 1, samples: samples)
    }

    static let sizes = [(5, 5), (48, 36), (36, 48), (64, 64), (64, 5), (7, 63), (33, 17), (48, 48), (27, 48), (64, 41)]

    @Test(.comparingEveryInstructionSet, arguments: sizes)
    func foldedQualityEqualsTheQualityOfTheDecimatedBlock(size: (Int, Int)) {
        for kind in 0..<3 {
            let luma = Self.plane(width: size.0, height: size.1, kind: kind, seed: UInt64(size.0 * 100 + size.1 + kind))
            let expected = PDQHasher.quality(of64x64: PDQHasher.decimate64(luma))
            for isa in supportedInstructionSets {
                #expect(PDQHasher(using: isa).hashFolded(luma: luma).quality == expected, "\(size) kind \(kind) \(isa)")
            }
        }
    }

    @Test(arguments: sizes)
    func foldedCoefficientsEqualTheDCTOfTheDecimatedBlockUpToRounding(size: (Int, Int)) {
        for kind in 0..<3 {
            let luma = Self.plane(width: size.0, height: size.1, kind: kind, seed: UInt64(size.0 * 7 + size.1 + kind))
            let block = DCTMatrix.pdq.transform(PDQHasher.decimate64(luma), using: .portable)
            let folded = PDQHasher(using: .portable).hashFolded(luma: luma)
            let scale = block.map { abs($0) }.max() ?? 1
            // The two sum the same products in different orders (about 2·10⁻⁴ of the largest
            // coefficient apart at worst here).
            for (a, b) in zip(folded.coefficients, block) {
                #expect(abs(a - b) <= 1e-3 * scale, "\(size) kind \(kind): \(a) against \(b)")
            }
            // Bits differ only where a coefficient sits at the median within rounding. With
            // fewer than 16 pixels on a side the 16 frequencies of that side are linearly
            // dependent and many coefficients tie at the median, so only larger sides compare.
            if min(size.0, size.1) >= 16 {
                #expect(folded.hash.distance(to: PDQHasher.bits(of: block)) <= 2, "\(size) kind \(kind)")
            }
        }
    }

    @Test(.comparingEveryInstructionSet, arguments: sizes)
    func foldedHashesAreIdenticalOnEveryInstructionSet(size: (Int, Int)) {
        for kind in 0..<3 {
            let luma = Self.plane(width: size.0, height: size.1, kind: kind, seed: UInt64(size.0 + size.1 * 3 + kind))
            let portable = PDQHasher(using: .portable).hashFolded(luma: luma)
            for isa in supportedInstructionSets {
                #expect(PDQHasher(using: isa).hashFolded(luma: luma) == portable, "\(size) kind \(kind) \(isa)")
            }
        }
    }

    @Test func onlyRegionsOfFiveToSixtyFourPixelsPerSideAreFolded() {
        #expect(PDQHasher.isFolded(width: 48, height: 36))
        #expect(PDQHasher.isFolded(width: 64, height: 5))
        #expect(!PDQHasher.isFolded(width: 65, height: 36))
        #expect(!PDQHasher.isFolded(width: 48, height: 4))
        // The catalog layout's 75 % coarse windows always fit, on every coarse plane size.
        let layout = FingerprintViewLayout.catalog
        for side in 1...layout.coarseSize {
            for region in layout.coarseRegions {
                let b = region.pixelBounds(width: side, height: side)
                #expect(b.width <= PDQHasher.foldedSide && b.height <= PDQHasher.foldedSide, "\(side) \(region)")
            }
        }
    }
}
