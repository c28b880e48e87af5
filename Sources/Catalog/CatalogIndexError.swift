/// Why an indexing run stopped before writing the new catalog. In every case the
/// previous catalog is intact; re-running picks up fingerprints already computed.
public enum CatalogIndexError: Error, Sendable, CustomStringConvertible {
    /// The source could not be loaded or is invalid.
    case source(CatalogSourceError)
    /// The store failed.
    case store(CatalogStoreError)
    /// The task was cancelled.
    case cancelled
    /// The progress callback threw this error (description) to stop the run.
    case stoppedByCaller(String)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .source(let error): error.description
        case .store(let error): error.description
        case .cancelled: "indexing cancelled; the previous catalog is unchanged"
        case .stoppedByCaller(let why): "indexing stopped: \(why); the previous catalog is unchanged"
        }
    }
}
