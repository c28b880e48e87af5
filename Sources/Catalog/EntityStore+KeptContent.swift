extension EntityStore {
    /// The live catalog less the landmarks and collections whose ids start with `prefix`,
    /// its reference images without fingerprints (a precomputed write keeps the hashes the
    /// catalog has for those paths): what a generator of its own landmarks (synthetic ones,
    /// crops) keeps when it replaces them, so that a real catalog indexed first survives.
    ///
    /// - Complexity: a constant number of queries, O(landmarks + images + collections).
    public func content(excludingIDPrefix prefix: String) async throws(CatalogStoreError) -> CatalogContent {
        let landmarks = try await allLandmarks().filter { !$0.id.hasPrefix(prefix) }.map { landmark in
            var landmark = landmark
            landmark.referenceImages = landmark.referenceImages.map { ReferenceImage(path: $0.path) }
            return landmark
        }
        return CatalogContent(landmarks: landmarks, collections: try await allCollections().filter { !$0.id.hasPrefix(prefix) })
    }
}
