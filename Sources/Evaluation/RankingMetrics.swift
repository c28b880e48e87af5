/// Retrieval quality over a set of positive queries: recall@1, recall@10 and mean
/// reciprocal rank. O(queries × results) to compute.
public struct RankingMetrics: Sendable, Hashable, Codable {
    /// Wire keys: snake_case like every JSON Glimpse writes (golden `testdata/wire/`).
    enum CodingKeys: String, CodingKey {
        case queries
        case recallAt1 = "recall_at_1"
        case recallAt10 = "recall_at_10"
        case meanReciprocalRank = "mean_reciprocal_rank"
    }

    /// Number of positive queries measured.
    public var queries: Int
    /// Fraction of queries whose first landmark is the right one (0…1).
    public var recallAt1: Double
    /// Fraction of queries with the right landmark among the first ten (0…1).
    public var recallAt10: Double
    /// Mean of 1 / rank of the right landmark, 0 when it is absent from the results (0…1).
    public var meanReciprocalRank: Double

    /// Measures `outcomes`; negatives (no expected id) are ignored. All zero when empty.
    public init(_ outcomes: some Sequence<QueryOutcome>) {
        var count = 0, top1 = 0, top10 = 0
        var reciprocal = 0.0
        for outcome in outcomes where outcome.expectedID != nil {
            count += 1
            guard let rank = outcome.rankOfExpected else { continue }
            if rank == 1 { top1 += 1 }
            if rank <= 10 { top10 += 1 }
            reciprocal += 1 / Double(rank)
        }
        queries = count
        recallAt1 = count == 0 ? 0 : Double(top1) / Double(count)
        recallAt10 = count == 0 ? 0 : Double(top10) / Double(count)
        meanReciprocalRank = count == 0 ? 0 : reciprocal / Double(count)
    }
}
