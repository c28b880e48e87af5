import Foundation

/// How the answers of a search through the first stage compare with the exhaustive scan's
/// on the same queries, at the no-match threshold (what a user is shown): `glimpse eval
/// --db CATALOG --compare-exhaustive`.
public struct FirstStageAgreement: Sendable, Hashable, Codable {
    /// Wire keys: snake_case like every JSON Glimpse writes (golden `testdata/wire/`).
    enum CodingKeys: String, CodingKey {
        case queries
        case top1 = "top_1"
        case top10 = "top_10"
        case recallAt1 = "recall_at_1"
        case exhaustiveRecallAt1 = "exhaustive_recall_at_1"
        case negatives
        case falsePositives = "false_positives"
        case exhaustiveFalsePositives = "exhaustive_false_positives"
        case rows
    }

    /// Queries compared (positives and negatives).
    public var queries: Int
    /// Share of queries whose first landmark is the same (or both answered no match).
    public var top1: Double
    /// Share of the exhaustive scan's top-10 landmarks (summed over queries) that the first
    /// stage's top 10 holds too; 1 when the exhaustive scan found nothing at all.
    public var top10: Double
    /// Recall@1 of the positive queries compared (all transformations), through the first
    /// stage: its first landmark at the no-match threshold is the expected one.
    public var recallAt1: Double
    /// The same for the exhaustive scan's answers.
    public var exhaustiveRecallAt1: Double
    /// Negative queries compared (images in no catalog, under every transformation).
    public var negatives: Int
    /// Negatives the first stage answered with a landmark at the no-match threshold.
    public var falsePositives: Int
    /// Negatives the exhaustive scan answered with a landmark at the no-match threshold:
    /// the same figure as `glimpse eval --exact`'s false-positive rate, from this run.
    public var exhaustiveFalsePositives: Int
    /// Per transformation: recall@1 through the first stage and through the exhaustive scan.
    public var rows: [Row]

    /// One transformation's recall@1 both ways.
    public struct Row: Sendable, Hashable, Codable {
        /// Wire keys: snake_case like every JSON Glimpse writes (golden `testdata/wire/`).
        enum CodingKeys: String, CodingKey {
            case transformation
            case queries
            case recallAt1 = "recall_at_1"
            case exhaustiveRecallAt1 = "exhaustive_recall_at_1"
        }

        /// The transformation's name.
        public var transformation: String
        /// Positive queries of it.
        public var queries: Int
        /// Recall@1 of the first stage's answers.
        public var recallAt1: Double
        /// Recall@1 of the exhaustive scan's answers.
        public var exhaustiveRecallAt1: Double
    }

    /// The agreement over the outcomes that carry ``QueryOutcome/exhaustiveIDs``; `nil` when
    /// none does. O(queries).
    public init?(outcomes: [QueryOutcome], transformations: [String]) {
        let compared = outcomes.filter { $0.exhaustiveIDs != nil }
        guard !compared.isEmpty else { return nil }
        queries = compared.count
        var sameFirst = 0, kept = 0, reference = 0
        for outcome in compared {
            let exhaustive = outcome.exhaustiveIDs ?? []
            if exhaustive.first == outcome.rankedIDs.first { sameFirst += 1 }
            let top = Set(exhaustive.prefix(10))
            reference += top.count
            kept += top.intersection(outcome.rankedIDs.prefix(10)).count
        }
        top1 = Double(sameFirst) / Double(compared.count)
        top10 = reference == 0 ? 1 : Double(kept) / Double(reference)
        let positives = compared.filter { $0.expectedID != nil }, negativeOutcomes = compared.filter { $0.expectedID == nil }
        let positiveCount = Double(max(1, positives.count))
        recallAt1 = Double(positives.filter { $0.rankedIDs.first == $0.expectedID }.count) / positiveCount
        exhaustiveRecallAt1 = Double(positives.filter { $0.exhaustiveIDs?.first == $0.expectedID }.count) / positiveCount
        negatives = negativeOutcomes.count
        falsePositives = negativeOutcomes.filter { !$0.rankedIDs.isEmpty }.count
        exhaustiveFalsePositives = negativeOutcomes.filter { !($0.exhaustiveIDs ?? []).isEmpty }.count
        rows = transformations.compactMap { name in
            let mine = compared.filter { $0.transformation == name && $0.expectedID != nil }
            guard !mine.isEmpty else { return nil }
            let n = Double(mine.count)
            return Row(transformation: name, queries: mine.count,
                       recallAt1: Double(mine.filter { $0.rankedIDs.first == $0.expectedID }.count) / n,
                       exhaustiveRecallAt1: Double(mine.filter { $0.exhaustiveIDs?.first == $0.expectedID }.count) / n)
        }
    }

    /// Markdown lines for `glimpse eval`'s report. O(rows).
    public var table: String {
        func f(_ v: Double) -> String { String(format: "%.3f", v) }
        var lines = ["First stage against the exhaustive scan (\(queries) queries, answers at the no-match threshold): "
            + "top-1 agreement \(f(top1)), top-10 agreement \(f(top10)); recall@1 \(f(recallAt1)) against \(f(exhaustiveRecallAt1)); "
            + "false positives \(falsePositives) against \(exhaustiveFalsePositives) of \(negatives) negatives.", "",
            "| transformation | queries | recall@1 first stage | recall@1 exhaustive |", "| --- | ---: | ---: | ---: |"]
        for row in rows { lines.append("| \(row.transformation) | \(row.queries) | \(f(row.recallAt1)) | \(f(row.exhaustiveRecallAt1)) |") }
        return lines.joined(separator: "\n")
    }
}
