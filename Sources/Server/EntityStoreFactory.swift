import Foundation
import Catalog

/// The one place the server gets its catalog store: everything else sees only
/// `any EntityStore`. A PostgreSQL store plugs in here (by the location's scheme).
public enum EntityStoreFactory {
    /// Opens the existing catalog at `location` (a SQLite file path).
    ///
    /// - Complexity: O(1) plus pending migrations.
    /// - Throws: ``CatalogStoreError/cannotOpen(_:reason:)`` when there is no catalog there
    ///   or it cannot be opened (not a Glimpse database, unreadable…).
    public static func open(_ location: String) throws(CatalogStoreError) -> any EntityStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .cannotOpen(location, reason: "no catalog database here; build one with 'glimpse index SOURCE --db \(location)'")
        }
        return try SQLiteEntityStore(path: location)
    }
}
