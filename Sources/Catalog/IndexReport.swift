import Fingerprints

/// What an indexing run did. Image files are classified against the catalog as it was
/// before the run: `added` (path new to the catalog), `updated` (content changed),
/// `unchanged` (same content: skipped, no decoding) or `failed`.
public struct IndexReport: Sendable, Hashable {
    /// One image that could not be indexed, and why. The rest of the run is unaffected;
    /// a failed image keeps its last good fingerprint if it had one.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The image file.
        public var path: String
        /// Why (unreadable, corrupt, unsupported…).
        public var reason: String

        /// Creates a failure record.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// One line for people, naming what and why.
        public var description: String { "\(path): \(reason)" }
    }

    /// Image paths new to the catalog, sorted.
    public var added: [String] = []
    /// Image paths whose content changed, sorted.
    public var updated: [String] = []
    /// Image paths whose content did not change, sorted.
    public var unchanged: [String] = []
    /// Images that failed, sorted by path.
    public var failed: [Failure] = []
    /// Images of the source (added, updated or unchanged) that a search with the image
    /// cannot find: ``Fingerprint/wholeImageQuality`` under
    /// ``FingerprintView/minimumSearchableQuality`` (flat colours, fine textures such as
    /// gravel or sand, thin line drawings). They are in the catalog, but only an exact copy
    /// of the file or its pixels finds them. Sorted.
    public var unsearchable: [String] = []
    /// How many images were actually decoded and fingerprinted in this run (the others
    /// came from the cache, including work saved by an interrupted earlier run).
    public var fingerprinted = 0
    /// Landmarks no longer in the source, soft-deleted by this run (undoable), sorted.
    public var removedLandmarks: [String] = []
    /// Collections no longer in the source, soft-deleted by this run (undoable), sorted.
    public var removedCollections: [String] = []
    /// Landmarks and collections a previous run had removed as missing, found again.
    public var restored: [EntityReference] = []
    /// The catalog version after the run (the generation only moves if something changed).
    public var version: CatalogVersion

    /// Creates an empty report for `version`.
    public init(version: CatalogVersion) {
        self.version = version
    }
}
