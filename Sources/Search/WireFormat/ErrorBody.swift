import Catalog

/// Every HTTP error body of `glimpse serve`: `{"error": CODE, "message": TEXT}`, where
/// CODE is a stable snake_case word a client can branch on (`not_found`,
/// `payload_too_large`, `page_token_expired`…) and TEXT one line for people naming what
/// was refused and why. Golden file: `testdata/wire/error.json`.
public struct ErrorBody: Sendable, Hashable, Codable {
    /// The stable error code.
    public var error: String
    /// What and why, for people.
    public var message: String

    /// Creates an error body.
    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}

/// `GET /v1/entities?ids=…`: the live entities among the ids asked for, in the order asked,
/// unknown ids skipped (like `EntityQuery.entities(for:)`): `{"entities": [EntityDocument]}`.
public struct EntityList: Sendable, Hashable, Codable {
    /// The entities found.
    public var entities: [EntityDocument]

    /// Creates a list.
    public init(entities: [EntityDocument]) {
        self.entities = entities
    }
}

/// The answer of the admin endpoints (`POST /v1/admin/remove`, `POST /v1/admin/undo`):
/// `{"removal": {"id", "reason", "entities": [URL]}}`, `removal` `null` when there was
/// nothing to undo.
public struct RemovalBody: Sendable, Hashable, Codable {
    /// One removal.
    public struct Item: Sendable, Hashable, Codable {
        /// The removal's number (what `undo` restores, newest first).
        public var id: Int64
        /// `user` (deleted), `archived`, or `missing` (gone from the source).
        public var reason: String
        /// The entity URLs it covers.
        public var entities: [String]
    }
    /// The removal made or undone.
    public var removal: Item?

    /// The body of `removal`. O(entities).
    public init(_ removal: Removal?) {
        self.removal = removal.map { Item(id: $0.id, reason: $0.reason.rawValue, entities: $0.entities.map(\.url)) }
    }

    /// Encodes `removal`, `null` when there was nothing to undo.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(removal, forKey: .removal)
    }
}
