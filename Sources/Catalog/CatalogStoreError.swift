/// Why a store operation failed.
public enum CatalogStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The catalog could not be opened or migrated (location, reason).
    case cannotOpen(String, reason: String)
    /// The file or database exists but is not a Glimpse catalog (location, what it is):
    /// another program's SQLite file, an empty file, a database without Glimpse's tables.
    /// Nothing was written to it.
    case notACatalog(String, reason: String)
    /// The catalog was written by a newer Glimpse: its schema has migrations this build
    /// does not know (location, the unknown migration). Nothing was written to it.
    case newerSchema(String, migration: String)
    /// A write was asked of a catalog opened read-only (location, the operation).
    case readOnly(String, operation: String)
    /// The database reported an error (operation, message).
    case database(String, reason: String)
    /// The entity does not exist or is already removed.
    case unknownEntity(EntityReference)
    /// A stored fingerprint could not be decoded (landmark id, image path).
    case corruptFingerprint(landmarkID: String, path: String)

    /// The reason alone, without the location or operation.
    public var reasonText: String {
        switch self {
        case .cannotOpen(_, let reason), .notACatalog(_, let reason), .database(_, let reason): reason
        default: description
        }
    }

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "\(path): cannot open catalog: \(reason)"
        case .notACatalog(let path, let reason): "\(path): not a Glimpse catalog (\(reason)); nothing was changed"
        case .newerSchema(let path, let migration):
            "\(path): this catalog was written by a newer Glimpse (schema step \"\(migration)\" is unknown to this version); upgrade glimpse to use it"
        case .readOnly(let path, let operation): "\(path): catalog opened read-only; cannot \(operation)"
        case .database(let operation, let reason): "catalog database error while \(operation): \(reason)"
        case .unknownEntity(let reference): "\(reference.url): no such \(reference.kind) in the catalog (unknown id or removed)"
        case .corruptFingerprint(let id, let path): "landmark \"\(id)\": stored fingerprint of \(path) is corrupt; re-index to rebuild it"
        }
    }
}
