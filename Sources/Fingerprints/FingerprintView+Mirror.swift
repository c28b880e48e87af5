extension FingerprintView {
    /// The view of the same region of the left–right mirrored image, given the mirrored
    /// PDQ hash and pHash (derived from this view's DCTs: ``PDQHasher/Result/hash(for:)``
    /// with ``Dihedral/flipY``, ``PerceptualHashes/mirroredDCT(_:)``). aHash and dHash are
    /// permuted bit by bit (``PerceptualHashes/mirroredAverageHash(_:)``,
    /// ``PerceptualHashes/mirroredDifferenceHash(_:)``); quality and histogram do not change
    /// under a mirror. O(1).
    public func mirrored(pdq mirroredPDQ: PDQHash, pHash mirroredPHash: UInt64) -> FingerprintView {
        FingerprintView(region: region, aHash: PerceptualHashes.mirroredAverageHash(aHash),
                        dHash: PerceptualHashes.mirroredDifferenceHash(dHash), pHash: mirroredPHash,
                        pdq: mirroredPDQ, quality: quality, histogram: histogram)
    }
}
