/// One answer of a visual search, a union with exactly one associated value per case,
/// like an App Intents `@UnionValue` enum.
public enum VisualSearchResult: Sendable, Hashable, Identifiable {
    /// A matching landmark.
    case landmark(LandmarkEntity)
    /// A collection holding matching landmarks.
    case collection(CollectionEntity)

    /// The kind of the wrapped entity.
    public var kind: EntityKind {
        switch self {
        case .landmark: .landmark
        case .collection: .collection
        }
    }

    /// The wrapped entity's (kind, id) pair; unique across both kinds.
    public var id: EntityReference { reference }

    /// The wrapped entity's (kind, id) pair.
    public var reference: EntityReference {
        switch self {
        case .landmark(let l): l.reference
        case .collection(let c): c.reference
        }
    }

    /// The wrapped entity's display representation.
    public var displayRepresentation: DisplayRepresentation {
        switch self {
        case .landmark(let l): l.displayRepresentation
        case .collection(let c): c.displayRepresentation
        }
    }

    /// The wrapped entity's URL (`glimpse://landmark/<id>` or `glimpse://collection/<id>`).
    public var url: String { reference.url }

    /// The landmark, if this is one.
    public var landmark: LandmarkEntity? {
        if case .landmark(let l) = self { l } else { nil }
    }

    /// The collection, if this is one.
    public var collection: CollectionEntity? {
        if case .collection(let c) = self { c } else { nil }
    }
}
