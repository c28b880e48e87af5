/// How a command opens its catalog. Only the commands that change the catalog (`index`,
/// `catalog remove|undo`) open it ``readWrite``; every other one opens it ``readOnly``.
public enum CatalogAccessMode: Sendable, Hashable {
    /// Reads only: the catalog must already exist and be a Glimpse catalog of a schema this
    /// build knows; nothing is ever written, created or migrated.
    case readOnly
    /// May create the catalog when missing and apply pending migrations.
    case readWrite
}
