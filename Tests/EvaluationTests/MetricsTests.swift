import SyntheticData
import Testing
@testable import Evaluation

/// Recall, MRR and the operating point computed on hand-made rankings.
@Suite struct MetricsTests {
    func outcome(_ expected: String?, _ ranked: [String], _ score: Double?, transformation: String = "t") -> QueryOutcome {
        QueryOutcome(image: "\(expected ?? "neg").jpg", transformation: transformation, expectedID: expected, rankedIDs: ranked, topScore: score)
    }

    @Test func recallAndMeanReciprocalRankOnAHandMadeRanking() {
        let many = (1...12).map { "x\($0)" }
        let outcomes = [
            outcome("a", ["a", "b", "c"], 0.9),          // rank 1
            outcome("b", ["c", "d", "b"], 0.5),          // rank 3
            outcome("c", ["d", "e"], 0.4),               // absent
            outcome("d", Array(many[0..<10]) + ["d"], 0.3), // rank 11: outside the top ten
            outcome(nil, ["a"], 0.8),                    // a negative: ignored
        ]
        let metrics = RankingMetrics(outcomes)
        #expect(metrics.queries == 4)
        #expect(metrics.recallAt1 == 0.25)
        #expect(metrics.recallAt10 == 0.5)
        #expect(abs(metrics.meanReciprocalRank - (1 + 1.0 / 3 + 0 + 1.0 / 11) / 4) < 1e-12)
        #expect(RankingMetrics([]).recallAt1 == 0)
    }

    @Test func operatingPointAllowsOnePercentOfNegativesAboveTheThreshold() {
        // 200 negatives: 2 may score above the threshold. Their top scores: 0.90, 0.80, 0.70, then 0.1…
        var negatives = [outcome(nil, ["z"], 0.9), outcome(nil, ["z"], 0.8), outcome(nil, ["z"], 0.7)]
        negatives += (0..<197).map { i in outcome(nil, i % 2 == 0 ? ["z"] : [], i % 2 == 0 ? 0.1 : nil) }
        let positives = [
            outcome("a", ["a"], 0.95),   // TP
            outcome("b", ["b"], 0.75),   // TP (0.75 > 0.7)
            outcome("c", ["c"], 0.70),   // at the threshold: rejected
            outcome("d", ["x", "d"], 0.99), // wrong top-1: never a TP
        ]
        let point = OperatingPoint(positives: positives, negatives: negatives, targetFalsePositiveRate: 0.01)
        #expect(point.threshold == 0.7)
        #expect(point.truePositiveRate == 0.5)
        #expect(point.falsePositiveRate == 0.01)
        #expect(point.negatives == 200 && point.positives == 4)
    }

    @Test func emptyNegativeAnswersLeaveNoThreshold() {
        let negatives = (0..<50).map { _ in outcome(nil, [], nil) }
        let point = OperatingPoint(positives: [outcome("a", ["a"], 0.2), outcome("b", [], nil)], negatives: negatives)
        #expect(point.threshold == nil)
        #expect(point.truePositiveRate == 0.5)
        #expect(point.falsePositiveRate == 0)
    }

    @Test func reportHasARowPerTransformationAndListsMisses() {
        let positives = [
            outcome("a", ["a"], 0.9, transformation: "blur"), outcome("b", ["a", "b"], 0.6, transformation: "blur"),
            outcome("a", ["a"], 0.8, transformation: "gamma"), outcome("b", ["b"], 0.7, transformation: "gamma"),
        ]
        let negatives = [outcome(nil, ["a"], 0.3, transformation: "blur"), outcome(nil, [], nil, transformation: "original")]
        let report = EvaluationReport(catalogImages: 2, negativeImages: 1, transformations: ["blur", "gamma"],
                                      positives: positives, negatives: negatives)
        #expect(report.rows.map(\.transformation) == ["blur", "gamma"])
        #expect(report.rows[0].metrics.recallAt1 == 0.5 && report.rows[1].metrics.recallAt1 == 1)
        #expect(report.rows[0].medianTopScore == 0.75 && report.rows[0].maxNegativeTopScore == 0.3)
        #expect(report.overall.recallAt1 == 0.75)
        #expect(report.misses.map(\.image) == ["b.jpg"])
        #expect(report.table.contains("| blur | 2 | 0.500 | 1.000 | 0.750 |"))
    }

    @Test func seedsAreStableAcrossRuns() {
        // FNV-1a of the empty string with salt 0 is the offset basis.
        #expect(SeededGenerator.seed(for: "", salt: 0) == 0xCBF2_9CE4_8422_2325)
        var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 7)
        #expect((0..<5).map { _ in a.next() } == (0..<5).map { _ in b.next() })
        // SplitMix64's first output for seed 0.
        var zero = SeededGenerator(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}

/// A fixed threshold (the search's own) accepts scores equal to it.
@Suite struct FixedThresholdTests {
    @Test func fixedThresholdKeepsScoresAtLeastIt() {
        let positives = [QueryOutcome(image: "a.jpg", transformation: "t", expectedID: "a", rankedIDs: ["a"], topScore: 0.35),
                         QueryOutcome(image: "b.jpg", transformation: "t", expectedID: "b", rankedIDs: ["b"], topScore: 0.34)]
        let negatives = [QueryOutcome(image: "n.jpg", transformation: "t", expectedID: nil, rankedIDs: ["a"], topScore: 0.35),
                         QueryOutcome(image: "m.jpg", transformation: "t", expectedID: nil, rankedIDs: [], topScore: nil)]
        let point = OperatingPoint(positives: positives, negatives: negatives, fixedThreshold: 0.35)
        #expect(point.threshold == 0.35 && point.acceptsThresholdScore)
        #expect(point.truePositiveRate == 0.5 && point.falsePositiveRate == 0.5)
        let report = EvaluationReport(catalogImages: 2, negativeImages: 2, transformations: ["t"],
                                      positives: positives, negatives: negatives, searchThreshold: 0.35)
        #expect(report.atSearchThreshold == point)
        #expect(report.table.contains("At the search's no-match threshold (score ≥ 0.350): true-positive rate 0.500, false-positive rate 50.000%."))
    }
}

/// The report lists the negatives most likely to be false positives.
@Suite struct HighestNegativesTests {
    @Test func highestNegativesAreTheTopScoresBestFirst() {
        let negatives = (0..<15).map { i in
            QueryOutcome(image: "n\(i).jpg", transformation: "t", expectedID: nil, rankedIDs: [], topScore: i == 3 ? nil : Double(i) / 20, topID: i == 3 ? nil : "x")
        }
        let report = EvaluationReport(catalogImages: 0, negativeImages: 15, transformations: ["t"], positives: [], negatives: negatives)
        #expect(report.highestNegatives.map(\.image) == (5..<15).reversed().map { "n\($0).jpg" })
    }
}
