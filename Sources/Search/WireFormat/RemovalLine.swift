import Foundation
import Catalog

/// One removal as a line of `glimpse catalog list --removed --json`:
/// `{"date", "entities": [URL], "id", "reason", "undone"}`, the same object the admin
/// endpoints answer inside `{"removal": …}` (the spec's `Removal`, which the server sends).
/// Golden file: `testdata/wire/removal-list.jsonl`.
public struct RemovalLine: Sendable, Hashable, Codable {
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
