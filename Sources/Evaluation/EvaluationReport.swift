import Foundation

/// The result of an evaluation: metrics per transformation and overall, the operating
/// point at 1 % false positives, and the misses for diagnosis. Codable for `--json`.
public struct EvaluationReport: Sendable, Hashable, Codable {
    /// Metrics of one transformation's queries (flat, so JSON readers find `recallAt1`
    /// beside `transformation`).
    public struct Row: Sendable, Hashable, Codable {
        /// Wire keys: snake_case like every JSON Glimpse writes (golden `testdata/wire/`).
        enum CodingKeys: String, CodingKey {
            case transformation
            case queries
            case recallAt1 = "recall_at_1"
            case recallAt10 = "recall_at_10"
            case meanReciprocalRank = "mean_reciprocal_rank"
            case medianTopScore = "median_top_score"
            case maxNegativeTopScore = "max_negative_top_score"
        }

        /// The transformation's name.
        public var transformation: String
        /// Number of positive queries.
        public var queries: Int
        /// Fraction whose first landmark is right (0…1).
        public var recallAt1: Double
        /// Fraction with the right landmark in the first ten (0…1).
        public var recallAt10: Double
        /// Mean reciprocal rank of the right landmark (0…1).
        public var meanReciprocalRank: Double
        /// Median score of the best raw match over its queries (0 when none matched).
        public var medianTopScore: Double
        /// Highest best-match score among the negatives under this transformation, if any.
        public var maxNegativeTopScore: Double?

        /// Creates a row.
        public init(transformation: String, metrics: RankingMetrics, medianTopScore: Double, maxNegativeTopScore: Double?) {
            self.transformation = transformation
            queries = metrics.queries
            recallAt1 = metrics.recallAt1
            recallAt10 = metrics.recallAt10
            meanReciprocalRank = metrics.meanReciprocalRank
            self.medianTopScore = medianTopScore
            self.maxNegativeTopScore = maxNegativeTopScore
        }

        /// The row's ranking metrics.
        public var metrics: RankingMetrics {
            var m = RankingMetrics([])
            m.queries = queries
            m.recallAt1 = recallAt1
            m.recallAt10 = recallAt10
            m.meanReciprocalRank = meanReciprocalRank
            return m
        }
    }

    /// Number of catalog images (each queried once per transformation).
    public var catalogImages: Int
    /// Number of negative images (each queried once untransformed and once per transformation).
    public var negativeImages: Int
    /// One row per transformation, in evaluation order.
    public var rows: [Row]
    /// Metrics over every positive query of every transformation.
    public var overall: RankingMetrics
    /// Threshold and true-positive rate at the target false-positive rate; `nil` without negatives.
    public var operatingPoint: OperatingPoint?
    /// True- and false-positive rates at the search's own no-match threshold, when known
    /// and there are negatives.
    public var atSearchThreshold: OperatingPoint?
    /// Recall and false positives at each of ``MinimumScorePoint/defaultScores`` (empty without negatives).
    public var minimumScores: [MinimumScorePoint] = []
    /// Positive queries whose first landmark was wrong or missing, for diagnosis.
    public var misses: [QueryOutcome]
    /// The ten negative queries whose best raw match scored highest (the likeliest false
    /// positives), best first, for diagnosis.
    public var highestNegatives: [QueryOutcome]
    /// Every query's outcome (positives, then negatives), for `glimpse eval --outcomes`;
    /// not part of the report's JSON.
    public var outcomes: [QueryOutcome] = []
    /// The first stage's agreement with the exhaustive scan, when the queries were compared
    /// (``FirstStageAgreement``); `nil` otherwise.
    public var firstStageAgreement: FirstStageAgreement?

    /// Wire keys (snake_case; the outcomes are written on their own, `eval --outcomes`).
    enum CodingKeys: String, CodingKey {
        case catalogImages = "catalog_images", negativeImages = "negative_images", rows, overall
        case operatingPoint = "operating_point", atSearchThreshold = "at_search_threshold", misses
        case highestNegatives = "highest_negatives", firstStageAgreement = "first_stage_agreement"
        case minimumScores = "minimum_scores"
    }

    /// Builds the report from every query's outcome. O(queries log queries).
    public init(catalogImages: Int, negativeImages: Int, transformations: [String],
                positives: [QueryOutcome], negatives: [QueryOutcome], targetFalsePositiveRate: Double = 0.01,
                searchThreshold: Double? = nil) {
        self.catalogImages = catalogImages
        self.negativeImages = negativeImages
        rows = transformations.map { name in
            let mine = positives.filter { $0.transformation == name }
            let scores = mine.map { $0.topScore ?? 0 }.sorted()
            let median = scores.isEmpty ? 0 : (scores.count % 2 == 1 ? scores[scores.count / 2]
                : (scores[scores.count / 2 - 1] + scores[scores.count / 2]) / 2)
            let negativeMax = negatives.filter { $0.transformation == name }.compactMap(\.topScore).max()
            return Row(transformation: name, metrics: RankingMetrics(mine), medianTopScore: median, maxNegativeTopScore: negativeMax)
        }
        overall = RankingMetrics(positives)
        operatingPoint = negatives.isEmpty ? nil
            : OperatingPoint(positives: positives, negatives: negatives, targetFalsePositiveRate: targetFalsePositiveRate)
        atSearchThreshold = negatives.isEmpty ? nil : searchThreshold.map {
            OperatingPoint(positives: positives, negatives: negatives, fixedThreshold: $0)
        }
        minimumScores = negatives.isEmpty ? [] : MinimumScorePoint.defaultScores.map {
            MinimumScorePoint(minimumScore: $0, positives: positives, negatives: negatives)
        }
        highestNegatives = Array(negatives.filter { $0.topScore != nil }
            .sorted { ($0.topScore ?? 0, $1.image, $1.transformation) > ($1.topScore ?? 0, $0.image, $0.transformation) }
            .prefix(10))
        outcomes = positives + negatives
        firstStageAgreement = FirstStageAgreement(outcomes: outcomes, transformations: transformations)
        misses = positives.filter { !$0.isCorrectAtTop }
            .sorted { ($0.transformation, $0.image) < ($1.transformation, $1.image) }
    }

    /// The report as a Markdown table plus the operating point, as printed by `glimpse eval`
    /// and pasted in the README.
    public var table: String {
        func f(_ v: Double) -> String { String(format: "%.3f", v) }
        var lines = [
            "| transformation | queries | recall@1 | recall@10 | MRR | median top score | max negative score |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in rows {
            lines.append("| \(row.transformation) | \(row.metrics.queries) | \(f(row.metrics.recallAt1)) | \(f(row.metrics.recallAt10)) | \(f(row.metrics.meanReciprocalRank)) | \(f(row.medianTopScore)) | \(row.maxNegativeTopScore.map(f) ?? "–") |")
        }
        lines.append("| **overall** | \(overall.queries) | \(f(overall.recallAt1)) | \(f(overall.recallAt10)) | \(f(overall.meanReciprocalRank)) | | |")
        lines.append("")
        lines.append("\(catalogImages) catalog images × \(rows.count) transformations; \(negativeImages) negative images × \(rows.count + 1) variants.")
        if let point = operatingPoint {
            let threshold = point.threshold.map { "score > \(f($0))" } ?? "any score (negatives returned nothing)"
            lines.append("At ≤ \(f(point.targetFalsePositiveRate * 100))% false positives (\(point.negatives) negative queries, measured \(f(point.falsePositiveRate * 100))%): "
                + "true-positive rate \(f(point.truePositiveRate)) over \(point.positives) positive queries, threshold \(threshold).")
        }
        if let fixed = atSearchThreshold, let threshold = fixed.threshold {
            lines.append("At the search's no-match threshold (score ≥ \(f(threshold))): true-positive rate \(f(fixed.truePositiveRate)), "
                + "false-positive rate \(f(fixed.falsePositiveRate * 100))%.")
        }
        if !minimumScores.isEmpty {
            lines.append("")
            lines.append("| minimum score | recall (true positives) | 95 % interval | false positives | 95 % interval |")
            lines.append("| ---: | ---: | ---: | ---: | ---: |")
            func percent(_ v: Double) -> String { String(format: "%.2f %%", v * 100) }
            for point in minimumScores {
                lines.append("| \(String(format: "%.2f", point.minimumScore)) | \(f(point.truePositiveRate)) (\(point.truePositives)/\(point.positives)) | "
                    + "\(f(point.truePositiveInterval[0]))–\(f(point.truePositiveInterval[1])) | \(percent(point.falsePositiveRate)) (\(point.falsePositives)/\(point.negatives)) | "
                    + "\(percent(point.falsePositiveInterval[0]))–\(percent(point.falsePositiveInterval[1])) |")
            }
        }
        if let agreement = firstStageAgreement {
            lines.append("")
            lines.append(agreement.table)
        }
        return lines.joined(separator: "\n")
    }
}
