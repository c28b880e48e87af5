/// Where an indexing run is, reported through the progress callback of
/// ``CatalogIndexer/index(_:mode:progress:)``.
public struct IndexProgress: Sendable, Hashable {
    /// The stages of a run, in order.
    public enum Phase: String, Sendable, Hashable {
        /// Checking which image files changed (stat, then hash when needed).
        case checking
        /// Hashing and fingerprinting changed images in parallel; `path` is the file
        /// just finished.
        case fingerprinting
        /// Writing the new catalog in one transaction; `completed` counts entities.
        case writing
    }

    /// The current stage.
    public var phase: Phase
    /// Items finished in this stage.
    public var completed: Int
    /// Items in this stage.
    public var total: Int
    /// The file just finished, when the stage works on files.
    public var path: String?

    /// Creates a progress value.
    public init(phase: Phase, completed: Int, total: Int, path: String? = nil) {
        self.phase = phase
        self.completed = completed
        self.total = total
        self.path = path
    }
}
