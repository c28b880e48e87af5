import Catalog
import Fingerprints

extension SyntheticCatalog {
    /// This catalog's landmarks as a ``FingerprintStream`` generated anew on every pass,
    /// merged in id order with `real` entries (for example an evaluation catalog's, so that
    /// real queries still find real answers among the synthetic ones): what writes a
    /// visual-index snapshot far larger than memory, or than a catalog database would be on
    /// disk, for capacity measurements (`glimpse debug-capacity-index`). Landmark i has the
    /// fingerprint ``content()`` gives it, under the same id.
    ///
    /// - Parameters:
    ///   - version: the catalog state the stream says it is (the snapshot records it).
    ///   - real: entries to merge in, in increasing id order (a ``FingerprintSnapshot``'s);
    ///     an entry whose id is a synthetic one is left out (the synthetic landmark wins).
    /// - Complexity: each pass O(views) generated numbers; holds one landmark at a time.
    public func fingerprintStream(version: CatalogVersion, merging real: [FingerprintSnapshot.Entry] = []) -> FingerprintStream {
        let catalog = self
        return FingerprintStream(version: version) { visit in
            var generator = SeededGenerator(seed: catalog.seed)
            let regions = catalog.viewRegions
            var next = 0
            for i in 0..<catalog.landmarkCount {
                let id = Self.landmarkID(i)
                while next < real.count, real[next].landmarkID <= id {
                    if real[next].landmarkID != id { try visit(real[next]) }
                    next += 1
                }
                try visit(FingerprintSnapshot.Entry(landmarkID: id, fingerprints: [catalog.nextFingerprint(regions: regions, using: &generator)]))
            }
            while next < real.count {
                try visit(real[next])
                next += 1
            }
        }
    }
}
