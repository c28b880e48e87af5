/// Why a catalog source (manifest or folder) could not be loaded. Every case names the
/// source file or folder; ``invalid(source:issues:)`` lists every problem found.
public enum CatalogSourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The manifest file or folder could not be read (path, reason).
    case unreadable(String, reason: String)
    /// The manifest is not well-formed JSON (path, parser message).
    case malformedJSON(String, reason: String)
    /// The source was read but is not a valid catalog; every problem is listed.
    case invalid(source: String, issues: [CatalogIssue])

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read catalog source: \(reason)"
        case .malformedJSON(let path, let reason): "\(path): not valid JSON: \(reason)"
        case .invalid(let source, let issues):
            issues.count == 1
                ? "\(source): \(issues[0])"
                : "\(source): \(issues.count) problems: " + issues.map(\.description).joined(separator: "; ")
        }
    }
}
