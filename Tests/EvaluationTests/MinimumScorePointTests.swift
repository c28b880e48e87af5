import Testing
@testable import Evaluation

/// The operating-point table behind `--min-score`: recall and false positives at each score,
/// counted from raw outcomes, with 95 % Wilson intervals.
@Suite struct MinimumScorePointTests {
    @Test func wilsonIntervalsMatchTheTextbookValues() {
        let none = MinimumScorePoint.wilsonInterval(successes: 0, trials: 10)
        #expect(none[0] == 0 && abs(none[1] - 0.2775) < 1e-4)
        let half = MinimumScorePoint.wilsonInterval(successes: 5, trials: 10)
        #expect(abs(half[0] - 0.2366) < 1e-4 && abs(half[1] - 0.7634) < 1e-4)
        #expect(MinimumScorePoint.wilsonInterval(successes: 0, trials: 0) == [0, 1])
        let all = MinimumScorePoint.wilsonInterval(successes: 1008, trials: 1008)
        #expect(all[1] > 1 - 1e-12 && all[0] > 0.996)
    }

    @Test func aScoreCountsRightAnswersAtOrAboveItAndAnyNegativeAnswerAtOrAboveIt() {
        let positives = [
            QueryOutcome(image: "a.jpg", transformation: "blur", expectedID: "a", rankedIDs: ["a"], topScore: 0.9),
            QueryOutcome(image: "b.jpg", transformation: "blur", expectedID: "b", rankedIDs: ["b"], topScore: 0.35),
            QueryOutcome(image: "c.jpg", transformation: "blur", expectedID: "c", rankedIDs: ["x", "c"], topScore: 0.8),
        ]
        let negatives = [
            QueryOutcome(image: "n.jpg", transformation: "blur", expectedID: nil, rankedIDs: [], topScore: 0.42, topID: "a"),
            QueryOutcome(image: "m.jpg", transformation: "blur", expectedID: nil, rankedIDs: [], topScore: nil),
        ]
        let at40 = MinimumScorePoint(minimumScore: 0.40, positives: positives, negatives: negatives)
        #expect(at40.truePositives == 1 && at40.falsePositives == 1 && at40.positives == 3 && at40.negatives == 2)
        let at35 = MinimumScorePoint(minimumScore: 0.35, positives: positives, negatives: negatives)
        #expect(at35.truePositives == 2 && at35.falsePositives == 1, "a score equal to the minimum counts")
        let at50 = MinimumScorePoint(minimumScore: 0.50, positives: positives, negatives: negatives)
        #expect(at50.truePositives == 1 && at50.falsePositives == 0 && at50.falsePositiveRate == 0)
        let report = EvaluationReport(catalogImages: 3, negativeImages: 2, transformations: ["blur"], positives: positives, negatives: negatives)
        #expect(report.minimumScores.map(\.minimumScore) == MinimumScorePoint.defaultScores)
        #expect(report.table.contains("| 0.40 | 0.333 (1/3) |"))
    }
}
