import Catalog

/// What a command that built a visual index from the catalog may replace at the snapshot
/// path when it writes its snapshot there (`glimpse index`, and the cold start of `query`
/// and `match`): the one rule, decided by where the path came from.
/// (A server's own saves are stricter still: ``PreparedSearchIndex/saveSnapshot(to:partition:)``.)
public enum SnapshotReplacement: Sendable, Hashable {
    /// Whatever is there: the catalog's own path (`CATALOG.vindex` beside an SQLite catalog),
    /// which only Glimpse writes, so a FIFO, an empty file or a snapshot damaged beyond
    /// recognition there is repaired.
    case anyFile
    /// Nothing, or a Glimpse snapshot of the whole catalog or of the same partition (sound or
    /// not, of this catalog or an earlier one): a path someone named (`--snapshot`), where a
    /// file that is not a snapshot is someone's, and a partition's snapshot a partition
    /// replica's own; both are left as they are.
    case snapshotsOnly

    /// Why the file at `path` must not be replaced by the snapshot of `owner`
    /// (``VisualIndexSnapshot/ownerID(catalogID:partition:)``), or `nil` when it may.
    /// Reads at most the file's header (``VisualIndexSnapshot/owner(ofFileAt:)``).
    ///
    /// - Complexity: O(1) system calls.
    public func refusal(toReplace path: String, withSnapshotOf owner: String) -> String? {
        guard self == .snapshotsOnly else { return nil }
        switch VisualIndexSnapshot.owner(ofFileAt: path) {
        case .nothing:
            return nil
        case .notASnapshot:
            return "\(path) is not a Glimpse visual-index snapshot; it is left as it is"
        case .snapshot(let found, _):
            guard found != owner, found.hasPrefix(VisualIndexSnapshot.partitionOwnerPrefix) else { return nil }
            return "\(path) is the snapshot of \(VisualIndexSnapshot.describe(owner: found)), not \(VisualIndexSnapshot.describe(owner: owner)); it is left as it is"
        }
    }
}
