import Search

/// Why a batch match stopped. Failures of single photos are not errors: they are rows
/// (``PhotoMatchRecord/Status/failed``).
public enum BatchMatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The photo folder cannot be listed (path, reason).
    case unreadableFolder(String, reason: String)
    /// The results file exists but cannot be read or appended to (path, reason).
    case resultsFile(String, reason: String)
    /// The search failed (catalog store error): matching cannot go on.
    case search(VisualSearchError)
    /// The caller's callback threw (its description): the run stopped.
    case stoppedByCaller(String)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .unreadableFolder(let path, let reason): "\(path): cannot read photo folder: \(reason)"
        case .resultsFile(let path, let reason): "\(path): \(reason)"
        case .search(let error): error.description
        case .stoppedByCaller(let why): "matching stopped: \(why)"
        }
    }
}
