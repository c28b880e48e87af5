/// The kinds of entity a Glimpse catalog holds, as they appear in URLs
/// (`glimpse://<kind>/<id>`) and in the type name shown to people.
public enum EntityKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A ``LandmarkEntity``: one place, with one or more reference images.
    case landmark
    /// A ``CollectionEntity``: an ordered list of landmarks.
    case collection

    /// The type name shown to people ("Landmark", "Collection"), like App Intents'
    /// `typeDisplayRepresentation`.
    public var typeDisplayName: String {
        switch self {
        case .landmark: "Landmark"
        case .collection: "Collection"
        }
    }

    /// The URL host form: `landmark` or `collection`.
    public var description: String { rawValue }
}
