import Testing
@testable import Evaluation

/// `glimpse eval --db --compare-exhaustive`'s comparison: both searches' recall@1 and false
/// positives come from the same outcomes, so `benchmarks/scale.sh` needs no second, exact
/// evaluation.
@Suite struct FirstStageAgreementTests {
    static func outcome(_ image: String, expected: String?, ranked: [String], exhaustive: [String]?,
                        transformation: String = "blur") -> QueryOutcome {
        QueryOutcome(image: image, transformation: transformation, expectedID: expected, rankedIDs: ranked, topScore: ranked.isEmpty ? nil : 0.5,
                     exhaustiveIDs: exhaustive)
    }

    @Test func recallAndFalsePositivesAreCountedForBothSearchesFromTheSameOutcomes() throws {
        let outcomes = [
            // Both right.
            Self.outcome("a", expected: "a", ranked: ["a"], exhaustive: ["a"]),
            // The first stage missed what the exhaustive scan found.
            Self.outcome("b", expected: "b", ranked: [], exhaustive: ["b", "c"], transformation: "crop"),
            // Both wrong, the same way.
            Self.outcome("c", expected: "c", ranked: ["d"], exhaustive: ["d"], transformation: "crop"),
            // A negative matched by the exhaustive scan only, one matched by both, one by neither.
            Self.outcome("n1", expected: nil, ranked: [], exhaustive: ["e"]),
            Self.outcome("n2", expected: nil, ranked: ["f"], exhaustive: ["f"]),
            Self.outcome("n3", expected: nil, ranked: [], exhaustive: []),
            // Not compared (no exhaustive answer): left out of every figure.
            Self.outcome("x", expected: "x", ranked: [], exhaustive: nil),
        ]
        let agreement = try #require(FirstStageAgreement(outcomes: outcomes, transformations: ["blur", "crop"]))
        #expect(agreement.queries == 6)
        #expect(agreement.recallAt1 == 1.0 / 3 && agreement.exhaustiveRecallAt1 == 2.0 / 3)
        #expect(agreement.negatives == 3 && agreement.falsePositives == 1 && agreement.exhaustiveFalsePositives == 2)
        #expect(agreement.rows.map(\.transformation) == ["blur", "crop"])
        #expect(agreement.rows[1].recallAt1 == 0 && agreement.rows[1].exhaustiveRecallAt1 == 0.5)
        #expect(agreement.table.contains("false positives 1 against 2 of 3 negatives"))
    }

    @Test func noComparedOutcomeGivesNoAgreement() {
        #expect(FirstStageAgreement(outcomes: [Self.outcome("x", expected: "x", ranked: ["x"], exhaustive: nil)], transformations: ["blur"]) == nil)
    }
}
