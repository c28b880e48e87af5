import Foundation
import GoldenFiles
import Search
import Testing
@testable import Evaluation

/// `glimpse eval --json` and `--outcomes` against their golden files in `testdata/wire/`:
/// snake_case keys like every JSON Glimpse writes, through the one encoder (`WireJSON`).
/// Regenerate only for an intended format change:
/// `GLIMPSE_UPDATE_GOLDEN=1 swift test --filter EvaluationWireFormatTests`.
@Suite struct EvaluationWireFormatTests {
    static let positives = [
        QueryOutcome(image: "animals/otter.jpg", transformation: "blur", expectedID: "animals/otter", rankedIDs: ["animals/otter"], topScore: 0.9,
                     topDistances: [12, 8, 9, 40], exhaustiveIDs: ["animals/otter"], queryCodes: ["0123456789abcdef:fedcba9876543210:F"]),
        QueryOutcome(image: "food/apricot.jpg", transformation: "blur", expectedID: "food/apricot", rankedIDs: ["food/plum", "food/apricot"], topScore: 0.61),
    ]
    static let negatives = [QueryOutcome(image: "bassoon.jpg", transformation: "original", expectedID: nil, rankedIDs: [], topScore: 0.31, topID: "objects/oboe")]

    @Test func outcomeLinesAreSnakeCaseAndRoundTrip() throws {
        let lines = (Self.positives + Self.negatives).map(WireJSON.line)
        try GoldenFile("eval-outcomes.jsonl").check(lines.joined(separator: "\n"))
        for (line, outcome) in zip(lines, Self.positives + Self.negatives) {
            #expect(try WireJSON.decode(QueryOutcome.self, from: Array(line.utf8)) == outcome)
        }
    }

    @Test func theReportIsSnakeCaseAndLeavesTheOutcomesToTheirOwnFile() throws {
        let report = EvaluationReport(catalogImages: 2, negativeImages: 1, transformations: ["blur"], positives: Self.positives,
                                      negatives: Self.negatives, searchThreshold: 0.4)
        let line = WireJSON.line(report)
        try GoldenFile("eval-report.json").check(line)
        #expect(!line.contains("\"outcomes\"") && !line.contains("recallAt1"))
    }
}
