import ArgumentParser
import Evaluation
import Fingerprints
import Foundation
import PixelBuffers
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

    @Option(help: "Query orientations tried: upright, upright-mirror or all.")
    var orientations: QueryOrientations = .all

    @Option(help: ArgumentHelp("Encode every query as a JPEG at this quality (1-100) and fingerprint it by decoding it, as `glimpse query` does with a JPEG file (DCT-scaled to the query decode size).", valueName: "quality"))
    var queryJpegQuality: Int?

    @Option(help: ArgumentHelp("With --query-jpeg-quality: decode query JPEGs at the smallest DCT scale keeping at least SHORT pixels on the short side and LONG on the long side for every query (default: the query fingerprinter's own sizes, \(ImageFingerprinter.decodeShortSide),\(ImageFingerprinter.decodeLongSide) and \(ImageFingerprinter.querySmallImageSides.minimumShortSide),\(ImageFingerprinter.querySmallImageSides.minimumLongSide) for images of at most \(ImageFingerprinter.querySmallImageSides.maxPixels) pixels).", valueName: "short,long"))
    var queryDecodeSize: String?

    @Option(help: ArgumentHelp("Also write every query's outcome (scores, distances) as JSON lines to this file.", valueName: "file"))
    var outcomes: String?

    @Option(name: .customLong("db"), help: ArgumentHelp("Search this existing catalog instead of a temporary one: it must hold the --catalog folder's images as 'glimpse index FOLDER' names them, among others (the distractor catalog of benchmarks/scale.sh). Opened read-only; its snapshot is mapped.", valueName: "path"))
    var database: String?

    @Flag(help: "With --db: also answer every query with the exhaustive scan and report the first stage's agreement with it.")
    var compareExhaustive = false

    @Flag(help: "Scan every view even when the catalog has a first-stage index.")
    var exact = false

    @Option(help: ArgumentHelp("First-stage parameters: lists probed per query view, code radius (of 128 bits), most landmarks scored.", valueName: "probes,radius,candidates", visibility: .hidden))
    var firstStageParameters: String?

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
        if exact { configuration.strategy = .exhaustive }
        if let firstStageParameters { configuration.strategy = .automatic(try CandidateIndex.SearchParameters(parsing: firstStageParameters)) }
        var queryFingerprinter = ImageFingerprinter.query(orientations: orientations)
        if let queryDecodeSize {
            let sides = queryDecodeSize.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard queryJpegQuality != nil, sides.count == 2, let short = sides[0], let long = sides[1], short > 0, long > 0 else {
                throw failure("eval: --query-decode-size takes two positive pixel counts, SHORT,LONG, and needs --query-jpeg-quality")
            }
            queryFingerprinter = ImageFingerprinter(layout: queryFingerprinter.layout, minimumShortSide: short, minimumLongSide: long)
        }
        if let queryJpegQuality, !(1...100).contains(queryJpegQuality) {
            throw failure("eval: --query-jpeg-quality must be between 1 and 100")
        }
        if database != nil, queryJpegQuality != nil {
            throw failure("eval: --db and --query-jpeg-quality cannot be combined")
        }
        let report: EvaluationReport
        do {
            if let database {
                report = try await runner.run(catalogFolder: catalog, negativesFolder: negatives, configuration: configuration,
                                              searchingCatalogAt: database, query: queryFingerprinter,
                                              compareExhaustive: compareExhaustive)
            } else if let queryJpegQuality {
                report = try await runner.run(catalogFolder: catalog, negativesFolder: negatives, configuration: configuration,
                                              query: queryFingerprinter, queryJPEGQuality: queryJpegQuality)
            } else {
                report = try await runner.run(catalogFolder: catalog, negativesFolder: negatives, configuration: configuration,
                                              query: queryFingerprinter)
            }
        } catch {
            throw failure(error.description)
        }
        if let outcomes {
            var text = ""
            for outcome in report.outcomes { text += WireJSON.line(outcome) + "\n" }
            do { try text.write(toFile: outcomes, atomically: true, encoding: .utf8) } catch {
                throw failure("eval: cannot write \(outcomes): \(error.localizedDescription)")
            }
        }
        if json {
            print(WireJSON.line(report))
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
