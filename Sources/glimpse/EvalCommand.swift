import ArgumentParser
import Evaluation
import Fingerprints
import Foundation
import Search

/// `glimpse eval`: the accuracy evaluation — transformed queries from a catalog folder,
/// negatives from photos outside it; recall@1, recall@10 and MRR per transformation and
/// the true-positive rate at 1 % false positives.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure search accuracy on transformed copies of a catalog's images.",
        discussion: """
            Indexes the catalog folder into a temporary store, queries every image under every \
            transformation (\(ImageTransformation.allCases.map(\.rawValue).joined(separator: ", "))) \
            and every negative image as it is and transformed, then prints recall@1, recall@10 \
            and MRR per transformation and overall, and the true-positive rate at 1% false \
            positives with the score threshold at that point.

            Example: glimpse eval --catalog testdata/catalog --negatives testdata/negatives
            """
    )

    @Option(help: "Folder of catalog images (sub-folders are collections; ids are relative paths without extension).")
    var catalog: String

    @Option(help: "Folder of photos that are not in the catalog, for the false-positive rate.")
    var negatives: String?

    @Option(help: "Comma-separated transformations to run (default: all).")
    var transformations: String?

    @Option(help: "No-match threshold for the query API's ranking (default: the search's own).")
    var threshold: Double?

    @Option(help: "Target false-positive rate for the operating point.")
    var falsePositiveRate: Double = 0.01

    @Option(help: "Write every query as PNG under DIR/<transformation>/<id>.png and exit (for comparisons with other tools).")
    var exportQueries: String?

    @Option(help: "Query orientations tried: upright, upright-mirror or all (default).")
    var orientations: QueryOrientations = .all

    @Option(help: ArgumentHelp("Also write every query's outcome (scores, distances) as JSON lines to this file.", valueName: "file"))
    var outcomes: String?

    @Flag(help: "List every query whose first landmark was wrong.")
    var showMisses = false

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    func run() async throws {
        var chosen = ImageTransformation.allCases
        if let transformations {
            chosen = []
            for name in transformations.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard let transformation = ImageTransformation(rawValue: name) else {
                    throw failure("eval: unknown transformation '\(name)' (known: \(ImageTransformation.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                chosen.append(transformation)
            }
        }
        guard falsePositiveRate > 0, falsePositiveRate < 1 else {
            throw failure("eval: --false-positive-rate must be between 0 and 1")
        }
        let runner = EvaluationRunner(transformations: chosen, targetFalsePositiveRate: falsePositiveRate)
        if let exportQueries {
            do {
                let count = try runner.exportQueries(catalogFolder: catalog, to: exportQueries)
                printError("eval: wrote \(count) queries under \(exportQueries)")
            } catch {
                throw failure(error.description)
            }
            return
        }
        var configuration = SearchConfiguration()
        if let threshold { configuration.scoring.noMatchThreshold = threshold }
        let report: EvaluationReport
        do {
            report = try await runner.run(catalogFolder: catalog, negativesFolder: negatives, configuration: configuration,
                                          query: .query(orientations: orientations))
        } catch {
            throw failure(error.description)
        }
        if let outcomes {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var text = ""
            for outcome in report.outcomes { text += String(decoding: try encoder.encode(outcome), as: UTF8.self) + "\n" }
            do { try text.write(toFile: outcomes, atomically: true, encoding: .utf8) } catch {
                throw failure("eval: cannot write \(outcomes): \(error.localizedDescription)")
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(report)
            print(String(decoding: data, as: UTF8.self))
            return
        }
        print(report.table)
        if showMisses, !report.misses.isEmpty {
            print("\nMisses (transformation  image  → first landmark returned; best raw match and its score):")
            for miss in report.misses {
                let got = miss.rankedIDs.first ?? "(nothing)"
                let raw = miss.topID.map { "\($0) \(miss.topScore.map { String(format: "%.3f", $0) } ?? "")" } ?? "(none)"
                print("  \(miss.transformation)  \(miss.image)  → \(got);  raw: \(raw)")
            }
            print("\nHighest-scoring negatives (transformation  image  → best raw match and its score):")
            for negative in report.highestNegatives {
                print("  \(negative.transformation)  \(negative.image)  → \(negative.topID ?? "-") \(negative.topScore.map { String(format: "%.3f", $0) } ?? "")")
            }
        }
    }
}
