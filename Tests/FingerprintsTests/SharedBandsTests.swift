import InstructionSetTesting
import PixelBuffers
import Testing
@testable import Fingerprints

/// Views of one plane share work (``PDQHasher/RowBand``, ``PerceptualHashes/CodeBand``):
/// a region hashed from a shared band must give the bits of the region hashed alone, on
/// every instruction set, wherever the region sits in the band.
@Suite struct SharedBandsTests {
    @Test(.comparingEveryInstructionSet, arguments: [(96, 72), (101, 67), (333, 250)])
    func regionsHashedFromSharedBandsEqualRegionsHashedAlone(size: (Int, Int)) {
        let luma = ImageKernels.luma(of: randomBuffer(format: .rgba8, width: size.0, height: size.1, seed: UInt64(size.0 + size.1)))
        let w = luma.width * 3 / 4, h = luma.height * 3 / 4
        let regions = [(0, 0), (luma.width - w, 0), (0, luma.height - h), (luma.width - w, luma.height - h), (3, 5)]
            .map { PixelRect(x: $0.0, y: $0.1, width: w, height: h) }
        for isa in supportedInstructionSets {
            var workspace = PDQHasher.Workspace()
            let weights = PerceptualHashes.CodeWeights(width: w, height: h)
            for r in regions {
                let alone = PDQHasher(using: isa).hash(luma: luma, region: r, workspace: &workspace)
                let band = PDQHasher.RowBand(luma: luma, x: r.x, y: 0, width: w, height: luma.height, workspace: &workspace, using: isa)
                let shared = PDQHasher(using: isa).hash(luma: luma, region: r, band: band, workspace: &workspace)
                #expect(alone == shared, "PDQ \(isa) \(r)")
                let codes = PerceptualHashes.codes(luma: luma, region: r, weights: weights, using: isa)
                let codeBand = PerceptualHashes.CodeBand(luma: luma, x: 0, y: r.y, width: luma.width, height: h, weights: weights, using: isa)
                let fromBand = PerceptualHashes.codes(band: codeBand, region: r, weights: weights, using: isa)
                #expect(codes.aHash == fromBand.aHash && codes.dHash == fromBand.dHash, "codes \(isa) \(r)")
                #expect(bitIdentical(codes.block, fromBand.block), "block \(isa) \(r)")
            }
        }
    }

    /// The plane transposed once into strips of 8 rows (``PDQHasher/PlaneStrips``) gives every
    /// region's first row filter, and hash, bit for bit as filtering the region's own rows:
    /// regions starting on and off a strip, heights that end inside a strip, planes whose
    /// last strip is short, windows of 1 to 3 pixels; on every path, though the fingerprinter
    /// builds strips only where they pay.
    @Test(.comparingEveryInstructionSet, arguments: [(96, 72), (101, 67), (333, 250), (128, 9)])
    func regionsFilteredFromPlaneStripsEqualRegionsFilteredAlone(size: (Int, Int)) {
        let luma = ImageKernels.luma(of: randomBuffer(format: .rgba8, width: size.0, height: size.1, seed: UInt64(3 * size.0 + size.1)))
        let (pw, ph) = (luma.width, luma.height)
        let regions = [PixelRect(x: 0, y: 0, width: pw, height: ph),
                       PixelRect(x: 0, y: 0, width: pw * 3 / 4, height: ph * 3 / 4),
                       PixelRect(x: pw / 8, y: min(3, ph - 5), width: pw * 3 / 4, height: ph - min(3, ph - 5)),
                       PixelRect(x: pw - pw * 3 / 5, y: ph - ph * 3 / 5, width: pw * 3 / 5, height: ph * 3 / 5),
                       PixelRect(x: 5, y: min(9, ph - 5), width: min(17, pw - 5), height: 5)]
        for isa in supportedInstructionSets {
            let strips = PDQHasher.PlaneStrips(luma: luma, using: isa)
            var workspace = PDQHasher.Workspace()
            for r in regions {
                let alone = PDQHasher(using: isa).hash(luma: luma, region: r, workspace: &workspace)
                let fromStrips = PDQHasher(using: isa).hash(luma: luma, region: r, strips: strips, workspace: &workspace)
                #expect(alone == fromStrips, "PDQ \(isa) \(r)")
                let direct = PDQHasher.RowBand(luma: luma, x: r.x, y: r.y, width: r.width, height: r.height,
                                               workspace: &workspace, using: isa)
                let viaStrips = PDQHasher.RowBand(luma: luma, x: r.x, y: r.y, width: r.width, height: r.height, strips: strips,
                                                  workspace: &workspace, using: isa)
                let same = (0..<(r.width * r.height)).allSatisfy { direct.samples.base[$0].bitPattern == viaStrips.samples.base[$0].bitPattern }
                #expect(same, "first rows \(isa) \(r)")
            }
        }
    }
}
