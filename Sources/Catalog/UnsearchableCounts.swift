/// How much of a catalog a search cannot find: images whose views covering most of the
/// image are all under the least searchable quality (``Fingerprint/wholeImageQuality``:
/// flat colours, fine textures such as gravel or sand, thin line drawings), and landmarks
/// all of whose images are such. Only an exact copy (``CopyKey``)
/// finds them. `glimpse catalog list` and `GET /readyz` report it.
public struct UnsearchableCounts: Sendable, Hashable, Codable {
    /// Live landmark images (with a fingerprint) that a search cannot find.
    public var images: Int
    /// Live landmarks none of whose images has a searchable view.
    public var landmarks: Int

    /// Creates counts.
    public init(images: Int, landmarks: Int) {
        self.images = images
        self.landmarks = landmarks
    }
}
