import Catalog

extension PreparedSearchIndex {
    /// What ``saveSnapshot(to:)`` did.
    public enum SnapshotSave: Sendable, Hashable, CustomStringConvertible {
        /// Written (atomically): the snapshot's bytes, and whether a first-stage file was
        /// written beside it.
        case written(bytes: Int, firstStage: Bool)
        /// Nothing to write: the index is itself mapped from a snapshot.
        case mapped
        /// Not written: changes were applied on top of its base since it was built (the base
        /// alone is not this version); the next full build saves one.
        case hasChanges(landmarks: Int)
        /// Not written: the file there already holds this generation or a later one of this
        /// catalog (another process wrote it).
        case notBehind(generation: Int64)
        /// Not written, and the file left as it is: it is not a snapshot of this catalog (a
        /// snapshot of another catalog, or not a snapshot at all). Why, for people.
        case refused(String)

        /// One line for people.
        public var description: String {
            switch self {
            case .written(let bytes, let firstStage): "snapshot written (\(bytes) bytes\(firstStage ? ", with its first stage" : ""))"
            case .mapped: "mapped from a snapshot already"
            case .hasChanges(let landmarks): "not written: \(landmarks) landmarks changed since its base was built"
            case .notBehind(let generation): "not written: the file already holds generation \(generation)"
            case .refused(let reason): "not written, the file left as it is: \(reason)"
            }
        }
    }

    /// Saves an index built in memory as the visual-index snapshot at `path`, with its first
    /// stage beside it (``CandidateIndex/path(forSnapshotAt:)``) when it has one: what a
    /// replica runs after building its index from the catalog (at start-up without a usable
    /// snapshot, or at a compaction), so that its next start maps this version instead of
    /// reading every fingerprint. Each file is written to a temporary sibling, `fsync`ed and
    /// renamed, so a reader sees the old file or the new one, never a part; the snapshot is
    /// written before its first stage (a reader between the two sees the new snapshot
    /// without a first stage and scans every view until it is there). Only a missing file, or
    /// a snapshot of this catalog at an earlier generation, is replaced
    /// (``VisualIndexSnapshot/owner(ofFileAt:)``): a path that holds another catalog's
    /// snapshot or anything else is left as it is. An index of one `partition` of several (a
    /// store's ``EntityStore/partition``, from which it was read) is saved as that
    /// partition's snapshot, which only a replica of the same partition maps or replaces.
    ///
    /// - Complexity: O(index bytes) writes; no store access, no memory beyond a header.
    /// - Throws: ``VisualIndexSnapshotError/cannotWrite(path:reason:)`` (a read-only folder,
    ///   a full disk): the files at `path` are then untouched, or the snapshot is written and
    ///   its first stage is not.
    public func saveSnapshot(to path: String, partition: CatalogPartition? = nil) throws(VisualIndexSnapshotError) -> SnapshotSave {
        let index = state.index
        if index.isMappedSnapshot { return .mapped }
        guard index.changedLandmarkCount == 0 else { return .hasChanges(landmarks: index.changedLandmarkCount) }
        switch VisualIndexSnapshot.owner(ofFileAt: path) {
        case .nothing: break
        case .notASnapshot: return .refused("\(path) is not a Glimpse visual-index snapshot")
        case .snapshot(let owner, let generation):
            let ours = VisualIndexSnapshot.ownerID(catalogID: index.version.catalogID, partition: partition)
            guard owner == ours else {
                return .refused("\(path) is the snapshot of \(VisualIndexSnapshot.describe(owner: owner)), not \(VisualIndexSnapshot.describe(owner: ours))")
            }
            guard generation < index.version.generation else { return .notBehind(generation: generation) }
        }
        try VisualIndexSnapshot.write(index.base, to: path, partition: partition)
        guard let firstStage = index.base.firstStage else { return .written(bytes: index.base.bytesUsed, firstStage: false) }
        try firstStage.write(to: CandidateIndex.path(forSnapshotAt: path))
        return .written(bytes: index.base.bytesUsed, firstStage: true)
    }
}
