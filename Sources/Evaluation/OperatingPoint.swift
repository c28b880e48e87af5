/// The no-match threshold at a target false-positive rate, and the true-positive rate it
/// gives: how often a query on a catalog image is answered with the right landmark while
/// photos outside the catalog are (almost always) answered with nothing.
///
/// Scores are the best raw match's, before the search's own no-match threshold. A
/// positive counts as a true positive when its best match is the right landmark and its
/// score is above the threshold; a negative counts as a false positive when its best
/// match's score is above the threshold. The threshold is the lowest that keeps the
/// false positives at or under `⌊target × negatives⌋`. O(n log n) to compute.
public struct OperatingPoint: Sendable, Hashable, Codable {
    /// Wire keys: snake_case like every JSON Glimpse writes (golden `testdata/wire/`).
    enum CodingKeys: String, CodingKey {
        case targetFalsePositiveRate = "target_false_positive_rate"
        case threshold
        case truePositiveRate = "true_positive_rate"
        case falsePositiveRate = "false_positive_rate"
        case positives
        case negatives
        case acceptsThresholdScore = "accepts_threshold_score"
    }

    /// The false-positive rate asked for (for example 0.01).
    public var targetFalsePositiveRate: Double
    /// Accept a result only when its score is strictly above this; `nil` when every
    /// negative already came back empty or few enough are left that any score is accepted.
    public var threshold: Double?
    /// Fraction of positives that are true positives at ``threshold`` (0…1).
    public var truePositiveRate: Double
    /// Fraction of negatives that are false positives at ``threshold`` (≤ the target).
    public var falsePositiveRate: Double
    /// Number of positive queries.
    public var positives: Int
    /// Number of negative queries.
    public var negatives: Int
    /// Whether a score equal to ``threshold`` is accepted (a fixed threshold such as the
    /// search's own keeps scores "at least" it) or not (a calibrated one keeps scores above it).
    public var acceptsThresholdScore: Bool

    /// Chooses the threshold from the negatives' top scores and measures the positives.
    public init(positives: some Collection<QueryOutcome>, negatives: some Collection<QueryOutcome>,
                targetFalsePositiveRate: Double = 0.01) {
        let negativeScores = negatives.compactMap(\.topScore).sorted(by: >)
        let allowed = Int((targetFalsePositiveRate * Double(negatives.count)).rounded(.down))
        let threshold: Double? = negativeScores.count > allowed ? negativeScores[allowed] : nil
        self.init(positives: positives, negatives: negatives, threshold: threshold, inclusive: false,
                  targetFalsePositiveRate: targetFalsePositiveRate)
    }

    /// Measures a fixed threshold, such as the search's own no-match threshold: a score
    /// at least `threshold` is accepted. ``targetFalsePositiveRate`` is then 0 (none asked).
    public init(positives: some Collection<QueryOutcome>, negatives: some Collection<QueryOutcome>, fixedThreshold: Double) {
        self.init(positives: positives, negatives: negatives, threshold: fixedThreshold, inclusive: true, targetFalsePositiveRate: 0)
    }

    private init(positives: some Collection<QueryOutcome>, negatives: some Collection<QueryOutcome>, threshold: Double?,
                 inclusive: Bool, targetFalsePositiveRate: Double) {
        let negativeScores = negatives.compactMap(\.topScore)
        func accepted(_ score: Double?) -> Bool {
            guard let score else { return false }
            guard let threshold else { return true }
            return inclusive ? score >= threshold : score > threshold
        }
        self.acceptsThresholdScore = inclusive
        let truePositives = positives.filter { $0.isCorrectRawMatch && accepted($0.topScore) }.count
        let falsePositives = negativeScores.filter { accepted($0) }.count
        self.targetFalsePositiveRate = targetFalsePositiveRate
        self.threshold = threshold
        self.truePositiveRate = positives.isEmpty ? 0 : Double(truePositives) / Double(positives.count)
        self.falsePositiveRate = negatives.isEmpty ? 0 : Double(falsePositives) / Double(negatives.count)
        self.positives = positives.count
        self.negatives = negatives.count
    }
}
