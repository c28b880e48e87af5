/// What ``CatalogIndexer`` needs to know before a run, read consistently from an
/// ``EntityStore``: which files it saw last time, which content each catalog image has,
/// and which fingerprints are cached, of which layout version.
public struct IndexingState: Sendable, Hashable {
    /// Image path → its state at the last run.
    public var fileStates: [String: FileState]
    /// Image path → content hash currently in the live or removed catalog.
    public var catalogHashes: [String: ContentHash]
    /// Content hash → layout version of its cached fingerprint (read from the stored
    /// fingerprint's header; an unreadable one counts as version 0, so it is recomputed).
    public var cachedLayoutVersions: [ContentHash: UInt16]
    /// Content hash → ``Fingerprint/wholeImageQuality`` of its cached fingerprint (so a run can
    /// tell which unchanged images are unsearchable without reading their fingerprints).
    public var cachedWholeImageQualities: [ContentHash: Int]

    /// Creates an indexing state.
    public init(fileStates: [String: FileState], catalogHashes: [String: ContentHash], cachedLayoutVersions: [ContentHash: UInt16],
                cachedWholeImageQualities: [ContentHash: Int] = [:]) {
        self.fileStates = fileStates
        self.catalogHashes = catalogHashes
        self.cachedLayoutVersions = cachedLayoutVersions
        self.cachedWholeImageQualities = cachedWholeImageQualities
    }
}
