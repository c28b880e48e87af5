import Catalog

/// Why a visual search could not answer.
public enum VisualSearchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The page token was refused (see ``PageTokenError``).
    case pageToken(PageTokenError)
    /// The page size is outside 1…1000.
    case invalidPageSize(Int)
    /// The catalog store failed.
    case store(CatalogStoreError)
    /// The mapped visual-index snapshot was found damaged while searching and the index could
    /// not be built again from the catalog here (a server's pinned index).
    case damagedIndex(VisualIndexDamage)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .pageToken(let error): error.description
        case .invalidPageSize(let size): "page size \(size) is outside 1…1000"
        case .store(let error): error.description
        case .damagedIndex(let damage): damage.description
        }
    }
}
