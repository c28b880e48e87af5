import Testing
@testable import Fingerprints

/// The query's derived orientations (``OrientedDCTHashes``) share medians between sign
/// patterns and transpose bits: that must be exactly `transformDCT` followed by the median
/// threshold, for every orientation.
@Suite struct OrientedDCTHashesTests {
    @Test(arguments: [31, 32, 33])
    func orientedHashesEqualThresholdingTheTransformedCoefficients(seed: UInt64) {
        // The query's derived orientations share medians between sign patterns and transpose
        // bits; that must be exactly transformDCT followed by the median threshold.
        let photo = syntheticPhoto(width: 96, height: 72, seed: seed)
        let result = PDQHasher().hash(photo)
        let block = PerceptualHashes.dctHashBlock(luma: ImageKernels.luma(of: photo))
        let dct = PerceptualHashes.dctCoefficients(block32x32: block)
        var oriented = OrientedDCTHashes(pdq: result.coefficients, pdqHash: result.hash, pHash: dct,
                                         pHashValue: PerceptualHashes.dctHash(coefficients: dct))
        for transform in Dihedral.allCases {
            #expect(oriented.pdq(for: transform) == PDQHasher.bits(of: transform.transformDCT(result.coefficients, side: 16)), "\(transform)")
            #expect(oriented.pHash(for: transform) == PerceptualHashes.dctHash(coefficients: transform.transformDCT(dct, side: 8)), "\(transform)")
        }
    }

}
