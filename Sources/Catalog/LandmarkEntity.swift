/// A place people search for by photo: its descriptive fields and its reference images.
///
/// Stored fields only; values derived from the store (the collections holding a
/// landmark, its image statistics) are computed on demand through an ``EntityStore``
/// and never stored twice (see ``EntityStore/collections(containing:)`` and
/// ``EntityStore/imageStatistics(for:)``).
public struct LandmarkEntity: CatalogEntity {
    /// Always ``EntityKind/landmark``.
    public static let kind = EntityKind.landmark

    /// Stable identifier, unique among landmarks (for folder catalogs: the image's path
    /// relative to the folder without its extension, `/` separated).
    public var id: String
    /// Human-readable name.
    public var name: String
    /// Continent, if known ("Europe", "Asia"…).
    public var continent: String?
    /// Free-text description.
    public var description: String
    /// Search keywords ("tower", "bridge"…); labels matching them boost a visual match.
    public var keywords: [String]
    /// Where the landmark is, if known.
    public var location: GeoLocation?
    /// Reference photos in catalog order; the first is the thumbnail.
    public var referenceImages: [ReferenceImage]

    /// Creates a landmark.
    public init(
        id: String, name: String, continent: String? = nil, description: String = "",
        keywords: [String] = [], location: GeoLocation? = nil, referenceImages: [ReferenceImage] = []
    ) {
        self.id = id
        self.name = name
        self.continent = continent
        self.description = description
        self.keywords = keywords
        self.location = location
        self.referenceImages = referenceImages
    }

    /// Title = name, subtitle = continent (if any), thumbnail = first reference image. O(1).
    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: name, subtitle: continent, thumbnailPath: referenceImages.first?.path)
    }
}
