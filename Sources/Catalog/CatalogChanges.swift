/// What changed in a catalog since a generation (``EntityStore/changes(since:)``): the
/// entities touched by every change after it, and the current fingerprints of the
/// landmarks among them that are live now. A replica applies it to the index it built at
/// that generation instead of reading the whole catalog again.
public struct CatalogChanges: Sendable {
    /// The version these changes bring the reader to.
    public var version: CatalogVersion
    /// The generation the changes start after.
    public var sinceGeneration: Int64
    /// `false` when the change log does not reach back to ``sinceGeneration`` (a catalog
    /// replaced under the reader, or a generation from another catalog): reload everything.
    public var isComplete: Bool
    /// Landmarks added, changed, removed or restored since ``sinceGeneration``, sorted.
    public var landmarkIDs: [String]
    /// Collections added, changed, removed or restored (or whose members changed), sorted.
    public var collectionIDs: [String]
    /// Fingerprints of the changed landmarks that are live now and have at least one
    /// fingerprint, sorted by id. A changed landmark missing here is gone from the index.
    public var fingerprints: [FingerprintSnapshot.Entry]

    /// Creates a change set.
    public init(version: CatalogVersion, sinceGeneration: Int64, isComplete: Bool, landmarkIDs: [String],
                collectionIDs: [String], fingerprints: [FingerprintSnapshot.Entry]) {
        self.version = version
        self.sinceGeneration = sinceGeneration
        self.isComplete = isComplete
        self.landmarkIDs = landmarkIDs
        self.collectionIDs = collectionIDs
        self.fingerprints = fingerprints
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { isComplete && landmarkIDs.isEmpty && collectionIDs.isEmpty }
}
