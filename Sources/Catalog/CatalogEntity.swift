/// What every searchable thing in a catalog has, like App Intents' `AppEntity`: a stable
/// id, a kind (whose ``EntityKind/typeDisplayName`` is the type name), a display
/// representation and a URL.
public protocol CatalogEntity: Sendable, Hashable, Identifiable where ID == String {
    /// The kind of entity, fixed per type.
    static var kind: EntityKind { get }
    /// The stable identifier, unique among entities of the same kind.
    var id: String { get }
    /// How the entity is shown to a person. O(1).
    var displayRepresentation: DisplayRepresentation { get }
}

extension CatalogEntity {
    /// The type name shown to people ("Landmark" or "Collection").
    public static var typeDisplayName: String { kind.typeDisplayName }

    /// The (kind, id) pair that names this entity.
    public var reference: EntityReference { EntityReference(kind: Self.kind, id: id) }

    /// The entity's URL, `glimpse://<kind>/<percent-encoded id>`.
    public var url: String { reference.url }
}
