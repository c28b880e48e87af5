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
    /// (`i/P`; summed over the requests merged, the first stage's and the whole scan's):
    /// what the asker subtracts to know the fan-out's own cost.
    public var scanMicroseconds: [String: Int]
    /// For each partition that answered from its first stage alone (asked with
    /// ``PartitionMatchRequest/firstStage``), by partition (`i/P`): its best candidate's
    /// exact score (``IndexSearchOutcome/firstStageBest``). A partition listed here may hold
    /// matches its candidates missed; one not listed scanned every view.
    public var firstStageBest: [String: Double]

    enum CodingKeys: String, CodingKey {
        case matches, collectionsByLandmark = "collections_by_landmark", isPartial = "partial"
        case missingPartitions = "missing_partitions", generations, scanMicroseconds = "scan_us"
        case firstStageBest = "first_stage_best"
    }

    /// Creates an answer. O(1).
    public init(matches: [LandmarkMatch], collectionsByLandmark: [String: [String]], isPartial: Bool,
                missingPartitions: [CatalogPartition] = [], generations: [String: Int64] = [:], scanMicroseconds: [String: Int] = [:],
                firstStageBest: [String: Double] = [:]) {
        self.scanMicroseconds = scanMicroseconds
        self.firstStageBest = firstStageBest
        self.matches = matches
        self.collectionsByLandmark = collectionsByLandmark
        self.isPartial = isPartial
        self.missingPartitions = missingPartitions
        self.generations = generations
    }

    /// Decodes an answer; `first_stage_best` may be absent (a replica of an older build,
    /// whose answers are complete). O(answer size).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        matches = try container.decode([LandmarkMatch].self, forKey: .matches)
        collectionsByLandmark = try container.decode([String: [String]].self, forKey: .collectionsByLandmark)
        isPartial = try container.decode(Bool.self, forKey: .isPartial)
        missingPartitions = try container.decode([CatalogPartition].self, forKey: .missingPartitions)
        generations = try container.decode([String: Int64].self, forKey: .generations)
        scanMicroseconds = try container.decode([String: Int].self, forKey: .scanMicroseconds)
        firstStageBest = try container.decodeIfPresent([String: Double].self, forKey: .firstStageBest) ?? [:]
    }

    /// The order of every match list: score descending, then landmark id ascending (the
    /// order ``IncrementalVisualIndex/search(_:scoring:minimumScore:deadline:limit:threads:using:strategy:)`` returns). O(1).
    public static func precedes(_ a: LandmarkMatch, _ b: LandmarkMatch) -> Bool {
        (a.score, b.landmarkID) > (b.score, a.landmarkID)
    }

    /// `matches` with each landmark once, at its best (``precedes(_:_:)``), in that order, cut
    /// to `limit`: the one merge rule of match lists, across partitions and across the rounds
    /// of one search. O(m log m).
    public static func bestPerLandmark(_ matches: some Sequence<LandmarkMatch>, limit: Int) -> [LandmarkMatch] {
        var best: [String: LandmarkMatch] = [:]
        for match in matches {
            if let kept = best[match.landmarkID], !precedes(match, kept) { continue }
            best[match.landmarkID] = match
        }
        return Array(best.values.sorted(by: precedes).prefix(max(0, limit)))
    }

    /// `parts` merged: every match kept once (a landmark lives in one partition; a repeat
    /// keeps its best), in ``precedes(_:_:)`` order, cut to `limit`; memberships (all of
    /// them, also of matches cut), partial flags, missing partitions (sorted),
    /// generations and first-stage scores combined (a partition's first-stage score is
    /// dropped when a part holds its scan of every view, which has the same generation or
    /// none: merging a partition's candidates with its whole scan gives the whole scan's
    /// answer, since a candidate's score is its exact score).
    ///
    /// - Complexity: O(m log m) for the m matches of all parts.
    public static func merging(_ parts: [PartitionMatches], limit: Int) -> PartitionMatches {
        let matches = bestPerLandmark(parts.lazy.flatMap(\.matches), limit: limit)
        var membership: [String: [String]] = [:]
        for part in parts { membership.merge(part.collectionsByLandmark) { a, _ in a } }
        let missing = Set(parts.flatMap(\.missingPartitions)).sorted { ($0.count, $0.index) < ($1.count, $1.index) }
        var generations: [String: Int64] = [:], scans: [String: Int] = [:], firstStage: [String: Double] = [:]
        for part in parts {
            generations.merge(part.generations) { a, _ in a }
            scans.merge(part.scanMicroseconds, uniquingKeysWith: +)
            firstStage.merge(part.firstStageBest) { a, b in max(a, b) }
        }
        // A partition answered in full by some part (it names the partition's generation
        // without a first-stage score) is no longer only its candidates.
        for part in parts {
            for partition in part.generations.keys where part.firstStageBest[partition] == nil { firstStage[partition] = nil }
        }
        return PartitionMatches(matches: matches, collectionsByLandmark: membership, isPartial: parts.contains(where: \.isPartial),
                                missingPartitions: missing, generations: generations, scanMicroseconds: scans, firstStageBest: firstStage)
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
    /// `scan` says which partitions are asked and how much of each is searched.
    /// Never throws: a failure is a missing partition.
    func matches(for fingerprint: Fingerprint, minimumScore: Double, limit: Int, membershipOf: [String],
                 deadline: ContinuousClock.Instant, scan: PartitionScan) async -> PartitionMatches
}
