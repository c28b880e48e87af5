/// The entities an ``IndexMode/add`` commit reads and writes: those its content names, each
/// once in source order. A store reads the catalog through these ids alone, so the commit
/// costs O(content), not O(catalog).
public struct EntityScope: Sendable, Hashable {
    /// The landmark ids of the content.
    public var landmarkIDs: [String]
    /// The collection ids of the content.
    public var collectionIDs: [String]

    /// The scope of `content`'s landmarks and collections. O(content).
    public init(_ content: CatalogContent) {
        landmarkIDs = content.landmarks.map(\.id)
        collectionIDs = content.collections.map(\.id)
    }
}
