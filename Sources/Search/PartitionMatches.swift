import Catalog
import Fingerprints

/// The landmark matches of one query in one or several partitions of a catalog: what a
/// replica holding one partition answers to a coordinator (the internal partition-matches
/// endpoint), and what the coordinator merges them into.
///
/// Scores are absolute (a landmark's score depends on the query and that landmark only),
/// so merging every partition's top `limit` and keeping the first `limit` by (score
/// descending, landmark id ascending) gives exactly the list one index holding the whole
/// catalog returns.
public struct PartitionMatches: Sendable, Hashable, Codable {
    /// Matching landmarks, score descending, ties by landmark id ascending.
    public var matches: [LandmarkMatch]
    /// The ids of the live collections holding each landmark of ``matches`` and each
    /// landmark asked for by id that the answering index holds (sorted ids).
    public var collectionsByLandmark: [String: [String]]
    /// Whether a deadline cut a partition's scan short.
    public var isPartial: Bool
    /// Partitions no replica answered for: their landmarks are missing from ``matches``.
    public var missingPartitions: [CatalogPartition]
    /// The catalog generation each answering partition's index was at, by partition
    /// (`i/P`); replicas converge within a change notification of each other.
    public var generations: [String: Int64]
    /// How long each answering partition's own scan took, in microseconds, by partition
    /// (`i/P`): what the asker subtracts to know the fan-out's own cost.
    public var scanMicroseconds: [String: Int]

    enum CodingKeys: String, CodingKey {
        case matches, collectionsByLandmark = "collections_by_landmark", isPartial = "partial"
        case missingPartitions = "missing_partitions", generations, scanMicroseconds = "scan_us"
    }

    /// Creates an answer. O(1).
    public init(matches: [LandmarkMatch], collectionsByLandmark: [String: [String]], isPartial: Bool,
                missingPartitions: [CatalogPartition] = [], generations: [String: Int64] = [:], scanMicroseconds: [String: Int] = [:]) {
        self.scanMicroseconds = scanMicroseconds
        self.matches = matches
        self.collectionsByLandmark = collectionsByLandmark
        self.isPartial = isPartial
        self.missingPartitions = missingPartitions
        self.generations = generations
    }

    /// The order of every match list: score descending, then landmark id ascending (the
    /// order ``IncrementalVisualIndex/search(_:scoring:minimumScore:deadline:limit:threads:using:strategy:)`` returns). O(1).
    public static func precedes(_ a: LandmarkMatch, _ b: LandmarkMatch) -> Bool {
        (a.score, b.landmarkID) > (b.score, a.landmarkID)
    }

    /// `parts` merged: every match kept once (a landmark lives in one partition; a repeat
    /// keeps its best), in ``precedes(_:_:)`` order, cut to `limit`; memberships (all of
    /// them, also of matches cut), partial flags, missing partitions (sorted) and
    /// generations combined.
    ///
    /// - Complexity: O(m log m) for the m matches of all parts.
    public static func merging(_ parts: [PartitionMatches], limit: Int) -> PartitionMatches {
        var best: [String: LandmarkMatch] = [:]
        for match in parts.lazy.flatMap(\.matches) {
            if let kept = best[match.landmarkID], !precedes(match, kept) { continue }
            best[match.landmarkID] = match
        }
        let matches = Array(best.values.sorted(by: precedes).prefix(max(0, limit)))
        var membership: [String: [String]] = [:]
        for part in parts { membership.merge(part.collectionsByLandmark) { a, _ in a } }
        let missing = Set(parts.flatMap(\.missingPartitions)).sorted { ($0.count, $0.index) < ($1.count, $1.index) }
        var generations: [String: Int64] = [:], scans: [String: Int] = [:]
        for part in parts {
            generations.merge(part.generations) { a, _ in a }
            scans.merge(part.scanMicroseconds) { a, _ in a }
        }
        return PartitionMatches(matches: matches, collectionsByLandmark: membership, isPartial: parts.contains(where: \.isPartial),
                                missingPartitions: missing, generations: generations, scanMicroseconds: scans)
    }
}

/// Where a replica holding one partition gets the matches of the partitions it does not
/// hold (``VisualSearchQuery`` asks it beside its own scan): the server's fan-out to one
/// replica of every other partition.
public protocol PartitionMatchSource: Sendable {
    /// Every other partition's matches for `fingerprint` scoring at least `minimumScore`,
    /// each cut to `limit`, merged (``PartitionMatches/merging(_:limit:)``), with the
    /// memberships of those matches and of the landmarks among `membershipOf` that a
    /// partition's index holds (exact copies found through the store); partitions no
    /// replica answered for by `deadline` are listed in ``PartitionMatches/missingPartitions``.
    /// Never throws: a failure is a missing partition.
    func matches(for fingerprint: Fingerprint, minimumScore: Double, limit: Int, membershipOf: [String],
                 deadline: ContinuousClock.Instant) async -> PartitionMatches
}
