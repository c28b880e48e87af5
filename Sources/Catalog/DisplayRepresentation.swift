/// How an entity is shown to a person: a title, an optional subtitle and an optional
/// thumbnail image path, like App Intents' `DisplayRepresentation`.
public struct DisplayRepresentation: Sendable, Hashable, Codable {
    /// The main line, usually the entity's name.
    public var title: String
    /// A secondary line (for a landmark its continent, for a collection its size), if any.
    public var subtitle: String?
    /// Absolute path of an image file that represents the entity, if any.
    public var thumbnailPath: String?

    /// Creates a display representation.
    public init(title: String, subtitle: String? = nil, thumbnailPath: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.thumbnailPath = thumbnailPath
    }
}
