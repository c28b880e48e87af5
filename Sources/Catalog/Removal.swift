import Foundation

/// One removal: a user's `remove` command, or the entities an indexing run found gone
/// from the source. Removed entities are kept (soft delete) and come back with
/// ``EntityStore/undoLastRemoval()``.
public struct Removal: Sendable, Hashable, Identifiable {
    /// Why entities were removed.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// Someone removed the entity by command.
        case removedByUser = "user"
        /// Someone archived the entity by command: hidden like a removal, kept, and
        /// listed as archived (`glimpse catalog list --removed`).
        case archivedByUser = "archived"
        /// An indexing run no longer found the entity in its source. Such entities come
        /// back by themselves when a later run finds them again.
        case missingFromSource = "missing"
    }

    /// Increasing identifier; the highest not-undone removal is the one undo restores.
    public var id: Int64
    /// Why.
    public var reason: Reason
    /// When.
    public var date: Date
    /// The entities it removed.
    public var entities: [EntityReference]
    /// Whether it has been undone.
    public var isUndone: Bool

    /// Creates a removal record.
    public init(id: Int64, reason: Reason, date: Date, entities: [EntityReference], isUndone: Bool) {
        self.id = id
        self.reason = reason
        self.date = date
        self.entities = entities
        self.isUndone = isUndone
    }
}
