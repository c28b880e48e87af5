import PixelBuffers
import Testing
@testable import Fingerprints

/// Views of one plane share work (``PDQHasher/RowBand``, ``PerceptualHashes/CodeBand``):
/// a region hashed from a shared band must give the bits of the region hashed alone, on
/// every instruction set, wherever the region sits in the band.
@Suite struct SharedBandsTests {
    @Test(arguments: [(96, 72), (101, 67), (333, 250)])
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
}
