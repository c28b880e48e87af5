import Catalog

/// What `glimpse index --json` prints: one object for the run.
///
///     {"added": N, "updated": N, "unchanged": N, "fingerprinted": N,
///      "failed": [{"path", "reason"}], "unsearchable": [PATH],
///      "removed": [URL], "restored": [URL], "generation": N, "elapsed_ms": N}
///
/// Counts for the files that went well (a folder may hold a million); paths for those
/// that need the user's attention: `failed` (not indexed) and `unsearchable` (indexed,
/// but with too little detail for a search to find: only an exact copy of the file does).
/// Keys come out sorted (``WireJSON``). Golden file: `testdata/wire/index-report.json`.
public struct IndexReportRecord: Sendable, Hashable, Codable {
    /// One file that could not be indexed.
    public struct Failure: Sendable, Hashable, Codable {
        /// The file, as opened.
        public var path: String
        /// Why, one line.
        public var reason: String

        /// Creates a failure.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// Image files new to the catalog.
    public var added: Int
    /// Image files whose content changed (or whose fingerprint was recomputed).
    public var updated: Int
    /// Image files skipped as unchanged.
    public var unchanged: Int
    /// Images decoded and fingerprinted by this run.
    public var fingerprinted: Int
    /// Files that failed, by path.
    public var failed: [Failure]
    /// Images of the source without a searchable view, sorted (``IndexReport/unsearchable``).
    public var unsearchable: [String]
    /// Entities removed as gone from the source, as `glimpse://` URLs, sorted.
    public var removed: [String]
    /// Entities restored (back in the source), as `glimpse://` URLs.
    public var restored: [String]
    /// The catalog generation after the run.
    public var generation: Int64
    /// Wall time of the run, in milliseconds.
    public var elapsedMilliseconds: Int

    /// The record of `report`. O(failed + unsearchable + removed).
    public init(_ report: IndexReport, elapsed: Duration) {
        added = report.added.count
        updated = report.updated.count
        unchanged = report.unchanged.count
        fingerprinted = report.fingerprinted
        failed = report.failed.map { Failure(path: $0.path, reason: $0.reason) }
        unsearchable = report.unsearchable
        removed = (report.removedLandmarks.map { EntityReference(kind: .landmark, id: $0) }
            + report.removedCollections.map { EntityReference(kind: .collection, id: $0) }).map(\.url).sorted()
        restored = report.restored.map(\.url)
        generation = report.version.generation
        elapsedMilliseconds = QueryResultRecord.milliseconds(elapsed)
    }

    enum CodingKeys: String, CodingKey {
        case added, updated, unchanged, fingerprinted, failed, unsearchable, removed, restored, generation
        case elapsedMilliseconds = "elapsed_ms"
    }

    /// The one-line JSON object. O(size).
    public var jsonLine: String { WireJSON.line(self) }
}
