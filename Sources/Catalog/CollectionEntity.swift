/// An ordered list of landmarks ("Towers of Europe", a sub-folder of photos…).
public struct CollectionEntity: CatalogEntity {
    /// Always ``EntityKind/collection``.
    public static let kind = EntityKind.collection

    /// Stable identifier, unique among collections (for folder catalogs: the folder's
    /// path relative to the catalog folder, `/` separated).
    public var id: String
    /// Human-readable name.
    public var name: String
    /// The ids of the landmarks it holds, in order. A store returns only live
    /// (not removed) landmarks here.
    public var landmarkIDs: [String]
    /// Thumbnail of the first member's first image, filled in by the store when it loads
    /// the collection (derived, never stored).
    public var thumbnailPath: String?

    /// Creates a collection.
    public init(id: String, name: String, landmarkIDs: [String], thumbnailPath: String? = nil) {
        self.id = id
        self.name = name
        self.landmarkIDs = landmarkIDs
        self.thumbnailPath = thumbnailPath
    }

    /// Number of landmarks, computed from ``landmarkIDs`` (never stored separately). O(1).
    public var landmarkCount: Int { landmarkIDs.count }

    /// Title = name, subtitle = "N landmarks", thumbnail = first member's first image. O(1).
    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(
            title: name, subtitle: landmarkCount == 1 ? "1 landmark" : "\(landmarkCount) landmarks",
            thumbnailPath: thumbnailPath)
    }
}
