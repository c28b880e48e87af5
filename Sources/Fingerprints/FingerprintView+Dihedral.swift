extension FingerprintView {
    /// The view of the same region of the transformed image, given its PDQ hash and pHash
    /// (derived from this view's DCTs: ``PDQHasher/Result/hash(for:)``,
    /// ``Dihedral/transformDCT(_:side:)`` then ``PerceptualHashes/dctHash(coefficients:using:)``).
    /// aHash and dHash are permuted bit by bit
    /// (``PerceptualHashes/averageHash(_:transformedBy:)``,
    /// ``PerceptualHashes/differenceHash(_:transformedBy:)``); the region is mapped
    /// (``Dihedral/transform(_:)``); quality and histogram do not change under a symmetry.
    /// O(1).
    public func transformed(by transform: Dihedral, pdq transformedPDQ: PDQHash, pHash transformedPHash: UInt64) -> FingerprintView {
        FingerprintView(region: transform.transform(region), aHash: PerceptualHashes.averageHash(aHash, transformedBy: transform),
                        dHash: PerceptualHashes.differenceHash(dHash, transformedBy: transform), pHash: transformedPHash,
                        pdq: transformedPDQ, quality: quality, histogram: histogram)
    }
}
