/// What ``CatalogIndexer`` needs to know before a run, read consistently from an
/// ``EntityStore``: which files it saw last time, which content each catalog image has,
/// and which fingerprints are cached.
public struct IndexingState: Sendable, Hashable {
    /// Image path → its state at the last run.
    public var fileStates: [String: FileState]
    /// Image path → content hash currently in the live or removed catalog.
    public var catalogHashes: [String: ContentHash]
    /// Content hashes whose fingerprint is cached.
    public var cachedHashes: Set<ContentHash>

    /// Creates an indexing state.
    public init(fileStates: [String: FileState], catalogHashes: [String: ContentHash], cachedHashes: Set<ContentHash>) {
        self.fileStates = fileStates
        self.catalogHashes = catalogHashes
        self.cachedHashes = cachedHashes
    }
}
