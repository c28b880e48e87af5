import Foundation

/// What one minimum score (`glimpse query --min-score`, `min_score`) means on an evaluation:
/// the share of positive queries answered with the right landmark at or above it (recall),
/// the share of negative queries answered with anything at or above it (false positives),
/// each with its 95 % Wilson score interval. The rows of docs/ACCURACY.md's "Choosing a
/// minimum score" come from these.
///
/// The intervals treat queries as independent; the transformed variants of one photo are
/// not, so the true uncertainty is wider than shown.
public struct MinimumScorePoint: Sendable, Hashable, Codable {
    /// Wire keys: snake_case like every JSON Glimpse writes (golden `testdata/wire/`).
    enum CodingKeys: String, CodingKey {
        case minimumScore = "minimum_score"
        case truePositiveRate = "true_positive_rate", truePositiveInterval = "true_positive_interval"
        case falsePositiveRate = "false_positive_rate", falsePositiveInterval = "false_positive_interval"
        case truePositives = "true_positives", falsePositives = "false_positives", positives, negatives
    }

    /// The minimum score measured (a score at least this counts).
    public var minimumScore: Double
    /// True positives over positive queries (0…1).
    public var truePositiveRate: Double
    /// 95 % Wilson interval of ``truePositiveRate``: lower, upper.
    public var truePositiveInterval: [Double]
    /// False positives over negative queries (0…1).
    public var falsePositiveRate: Double
    /// 95 % Wilson interval of ``falsePositiveRate``: lower, upper.
    public var falsePositiveInterval: [Double]
    /// Positive queries whose best landmark is the right one at a score ≥ ``minimumScore``.
    public var truePositives: Int
    /// Negative queries with any landmark at a score ≥ ``minimumScore``.
    public var falsePositives: Int
    /// Number of positive queries.
    public var positives: Int
    /// Number of negative queries.
    public var negatives: Int

    /// The minimum scores an evaluation reports by default: around the calibrated 0.40.
    public static let defaultScores: [Double] = [0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.60, 0.70]

    /// Measures `minimumScore` on the outcomes (raw best matches, before any threshold).
    /// - Complexity: O(positives + negatives).
    public init(minimumScore: Double, positives: some Collection<QueryOutcome>, negatives: some Collection<QueryOutcome>) {
        let point = OperatingPoint(positives: positives, negatives: negatives, fixedThreshold: minimumScore)
        self.minimumScore = minimumScore
        truePositives = Int((point.truePositiveRate * Double(positives.count)).rounded())
        falsePositives = Int((point.falsePositiveRate * Double(negatives.count)).rounded())
        self.positives = positives.count
        self.negatives = negatives.count
        truePositiveRate = point.truePositiveRate
        falsePositiveRate = point.falsePositiveRate
        truePositiveInterval = Self.wilsonInterval(successes: truePositives, trials: positives.count)
        falsePositiveInterval = Self.wilsonInterval(successes: falsePositives, trials: negatives.count)
    }

    /// The 95 % Wilson score interval of `successes` in `trials` ([0, 1] when there are none).
    /// - Complexity: O(1).
    public static func wilsonInterval(successes: Int, trials: Int) -> [Double] {
        guard trials > 0 else { return [0, 1] }
        let z = 1.959_963_984_540_054, n = Double(trials), p = Double(successes) / n
        let denominator = 1 + z * z / n
        let centre = (p + z * z / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return [max(0, centre - half), min(1, centre + half)]
    }
}
