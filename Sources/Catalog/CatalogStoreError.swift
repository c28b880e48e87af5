/// Why a store operation failed.
public enum CatalogStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database file could not be opened or migrated (path, reason).
    case cannotOpen(String, reason: String)
    /// SQLite reported an error (operation, message).
    case database(String, reason: String)
    /// The entity does not exist or is already removed.
    case unknownEntity(EntityReference)
    /// A stored fingerprint could not be decoded (landmark id, image path).
    case corruptFingerprint(landmarkID: String, path: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "\(path): cannot open catalog: \(reason)"
        case .database(let operation, let reason): "catalog database error while \(operation): \(reason)"
        case .unknownEntity(let reference): "\(reference.url): no such \(reference.kind) in the catalog (unknown id or removed)"
        case .corruptFingerprint(let id, let path): "landmark \"\(id)\": stored fingerprint of \(path) is corrupt; re-index to rebuild it"
        }
    }
}
