import Foundation
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
/// `{"removal": {"date", "entities": [URL], "id", "reason", "undone"}}`, `removal` `null`
/// when there was nothing to undo. Its ``Item`` is also each line of
/// `glimpse catalog list --removed --json`. Golden files: `testdata/wire/removal.json`,
/// `removal-none.json`, `removal-list.jsonl`.
public struct RemovalBody: Sendable, Hashable, Codable {
    /// One removal.
    public struct Item: Sendable, Hashable, Codable {
        /// The removal's number (what `undo` restores, newest first).
        public var id: Int64
        /// `user` (deleted), `archived`, or `missing` (gone from the source).
        public var reason: String
        /// When it was made: ISO 8601, UTC, whole seconds (`2026-11-24T07:35:00Z`).
        public var date: String
        /// Whether it has been undone (its entities are back).
        public var undone: Bool
        /// The entity URLs it covers.
        public var entities: [String]

        /// The wire form of `removal`.
        ///
        /// - Complexity: O(entities).
        public init(_ removal: Removal) {
            id = removal.id
            reason = removal.reason.rawValue
            date = removal.date.formatted(.iso8601)
            undone = removal.isUndone
            entities = removal.entities.map(\.url)
        }
    }
    /// The removal made or undone.
    public var removal: Item?

    /// The body of `removal`.
    ///
    /// - Complexity: O(entities).
    public init(_ removal: Removal?) {
        self.removal = removal.map(Item.init)
    }

    /// Encodes `removal`, `null` when there was nothing to undo.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(removal, forKey: .removal)
    }
}
