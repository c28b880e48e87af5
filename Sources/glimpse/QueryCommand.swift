import ArgumentParser
import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import Search

/// `glimpse query IMAGE...`: the visual search for what a person selected in each image
/// (``VisualSearchQuery/values(for:page:)``), one page at a time.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Find the landmarks and collections that match an image or a region of it.",
        discussion: """
            Prints a table (rank, kind, id, title, score, URL) per image, then the command \
            that fetches the next page. Scores are similarities in 0…1, higher is better, \
            comparable across queries; results below the no-match threshold are not shown.

            With --json, prints one object per image per line (keys sorted):
              {"elapsed_ms": N, "next_page_token": TOKEN|null, "partial": BOOL, "query": PATH,
               "results": [{"id", "kind", "score", "subtitle", "title", "url"}]}
            "partial" is true when --deadline-ms cut the scan short. An image that failed \
            gets a line too, with "error" (the reason) and no results.

            Example:
              glimpse query testdata/samples/screenshot-hurricane-ridge.png \\
                --region 4,211,712,332
              glimpse query testdata/catalog/food/apricot.jpg \\
                --region-fraction 0.1,0.1,0.8,0.8 --labels fruit --json
              glimpse query testdata/catalog/animals/otter.jpg \\
                --region-fraction 0,0,0.5,0.5 --min-score 0.3

            Exit codes: 0 every image matched; 1 usage or input error (missing or corrupt \
            image, bad region, refused page token); 2 some images failed, others answered; \
            3 an image matched nothing (the whole catalog was scanned); 4 the --deadline-ms \
            deadline cut a scan short before anything was found (partial: not a "no match"; \
            retry with a longer deadline).
            """
    )

    @Argument(help: ArgumentHelp("PNG, JPEG, WebP, HEIF or AVIF images to search with.", valueName: "image"))
    var images: [String]

    @Flag(help: "Scan every view even when the catalog has a first-stage index (the reference the first stage is measured against).")
    var exact = false

    @OptionGroup var database: DatabaseOption

    @OptionGroup var snapshot: SnapshotOption

    @Option(help: "Orientations of the picture tried: upright, upright-mirror or all (rotations by 90°, 180°, 270°, flips, transposes).")
    var orientations: QueryOrientations = .all

    @Option(parsing: .unconditional, help: ArgumentHelp("Search only this rectangle, in pixels of the upright image.", valueName: "X,Y,W,H"))
    var region: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Search only this rectangle, as fractions 0…1 of the image.", valueName: "X,Y,W,H"))
    var regionFraction: String?

    @Option(help: ArgumentHelp("Words describing the content; matching landmarks with these keywords rank higher.", valueName: "a,b"))
    var labels: String?

    @Option(help: "Results per page (1…1000).")
    var pageSize: Int = 10

    @Option(help: ArgumentHelp("Lowest score that counts as a match, 0…1 (default: the calibrated \(SimilarityScoring.defaultNoMatchThreshold)); docs/ACCURACY.md gives the false-positive rate and recall of each. Continue a page with the same value.", valueName: "score"))
    var minScore: String?

    @Option(help: "Continue with the page this token (printed by the previous page) names. One image only.")
    var pageToken: String?

    @Option(help: "Time budget per image in milliseconds, 1…60000 (decode, fingerprint and scan); a slower scan returns a partial page.")
    var deadlineMs: Int = 500

    @Flag(help: "One JSON object per image per line instead of tables.")
    var json = false

    func validate() throws {
        _ = try searchRequest()
        if pageToken != nil && images.count > 1 { throw ValidationError("--page-token continues one query: give one image") }
    }

    /// The options as the one ``SearchRequest`` (the limits and grammar `POST /v1/search` uses too).
    private func searchRequest() throws -> SearchRequest {
        do {
            return try SearchRequest(parsing: .init(region: region, regionFraction: regionFraction, labels: labels, pageSize: String(pageSize),
                                                    deadlineMilliseconds: String(deadlineMs), exact: String(exact), minimumScore: minScore))
        } catch {
            throw ValidationError(error.message(naming: \.optionName))
        }
    }

    func run() async throws {
        let store = try await database.openExisting()
        let fingerprinting = ImageFingerprinter.query(orientations: orientations)
        var configuration = SearchConfiguration()
        if exact { configuration.strategy = .exhaustive }
        let search = VisualSearchQuery(store: store, configuration: configuration, snapshotPath: snapshot.path(for: database), snapshotReplacement: snapshot.replacement,
                                       fingerprinter: fingerprinting)
        // Maps and checks the snapshot beside the catalog (or builds the index) while the first
        // image is decoded and fingerprinted: both take milliseconds and need different cores.
        let loading = Task { await noteOutdatedFingerprints(search, database: database) }
        let searchRequest = try searchRequest()
        let labelList = searchRequest.labels, decodeRegion = searchRequest.region
        let request = PageRequest(size: searchRequest.pageSize, token: pageToken.map(PageToken.init), deadline: searchRequest.deadline,
                                  minimumScore: searchRequest.minimumScore)
        var failed = 0
        var unmatched = 0
        var cutShort = 0
        for (number, image) in images.enumerated() {
            var started = ContinuousClock.now
            let page: ResultPage<VisualSearchResult>
            do {
                // The one fingerprinting path: rows go from the decoder straight into the working planes.
                let bytes = try FileBytes.contents(ofFile: image)
                let fingerprint = try fingerprinting.fingerprint(decoding: bytes, source: image, region: decodeRegion)
                // A whole image may be an exact copy of a catalog image (found whatever its detail).
                let copyKey = decodeRegion == nil ? CopyKey(bytes: bytes, queryFingerprint: fingerprint) : nil
                // Waiting for the index (first image only) is not the image's time: neither its
                // deadline nor its elapsed_ms pays for loading.
                let waitStarted = ContinuousClock.now
                await loading.value
                started += ContinuousClock.now - waitStarted
                // --deadline-ms is the image's whole budget (decode and fingerprint included),
                // so the scan gets what is left; none left: a partial page, nothing found yet.
                var remaining = request
                remaining.deadline = max(.zero, request.deadline - (ContinuousClock.now - started))
                page = try await search.values(for: fingerprint, labels: labelList, copyKey: copyKey, page: remaining)
            } catch let error as DecodeError {
                printError("glimpse: \(error.description)")
                if json { print(QueryResultRecord.failure(query: image, reason: error.description, elapsed: ContinuousClock.now - started).jsonLine) }
                failed += 1
                continue
            } catch let error as VisualSearchError {
                if case .store = error { throw database.storeFailure(error) }
                printError("glimpse: \(image): \(error.description)")
                if json {
                    print(QueryResultRecord.failure(query: image, reason: "\(image): \(error.description)", elapsed: ContinuousClock.now - started).jsonLine)
                }
                failed += 1
                continue
            }
            let record = QueryResultRecord(query: image, page: page, elapsed: ContinuousClock.now - started)
            if page.items.isEmpty {
                if record.isPartial { cutShort += 1 } else { unmatched += 1 }
            }
            if json {
                print(record.jsonLine)
            } else {
                if number > 0 { print() }
                printTable(record, page: page, request: searchRequest)
            }
        }
        await loading.value // every image may have failed before the index was needed
        if failed == images.count { throw ExitCode(ExitStatus.inputError.rawValue) }
        if failed > 0 { throw ExitCode(ExitStatus.someFilesFailed.rawValue) }
        if unmatched > 0 { throw ExitCode(ExitStatus.noMatch.rawValue) }
        if cutShort > 0 { throw ExitCode(ExitStatus.partialNothingFound.rawValue) }
    }

    /// The region as the option that gives it, normalised (`--region x,y,w,h`).
    private static func regionArguments(_ region: DecodeOptions.Region?) -> [String] {
        switch region {
        case .pixels(let rect)?: ["--region", "\(rect.x),\(rect.y),\(rect.width),\(rect.height)"]
        case .fractions(let x, let y, let width, let height)?: ["--region-fraction", [x, y, width, height].map { String($0) }.joined(separator: ",")]
        case nil: []
        }
    }

    private func printTable(_ record: QueryResultRecord, page: ResultPage<VisualSearchResult>, request: SearchRequest) {
        var heading = shown(record.query ?? "")
        let regionArguments = Self.regionArguments(request.region)
        if regionArguments.count == 2 {
            heading += regionArguments[0] == "--region" ? " (region \(regionArguments[1]))" : " (region fraction \(regionArguments[1]))"
        }
        if labels != nil { heading += " [labels: \(request.labels.joined(separator: ", "))]" }
        if record.results.isEmpty {
            if record.isPartial {
                print("\(heading): nothing found yet: the deadline (\(deadlineMs) ms) cut the scan short (partial, \(record.elapsedMilliseconds) ms); "
                    + "raise --deadline-ms for a complete answer")
            } else if record.reason == QueryResultRecord.notInformative {
                print("\(heading): no match: too little detail to search (flat colour, fine texture or thin lines), "
                    + "and no catalog image is an exact copy of it (\(record.elapsedMilliseconds) ms)")
            } else {
                print("\(heading): no match (\(record.elapsedMilliseconds) ms)")
            }
            return
        }
        let first = page.offset + 1
        let last = page.offset + record.results.count
        print("\(heading): results \(first)–\(last) of \(page.totalCount)\(record.isPartial ? " (partial: the deadline cut the scan short)" : ""), \(record.elapsedMilliseconds) ms")
        let rows = record.results.enumerated().map { index, row in
            [String(page.offset + index + 1), row.kind.rawValue, row.id, row.title, String(format: "%.3f", row.score), row.url]
        }
        print(TextTable(header: ["RANK", "KIND", "ID", "TITLE", "SCORE", "URL"], rows: rows, rightAligned: [0, 4]).text)
        if let token = record.nextPageToken {
            var arguments = ["glimpse", "query", record.query ?? ""] + database.arguments
            arguments += regionArguments
            if let labels { arguments += ["--labels", labels] }
            if orientations != .all { arguments += ["--orientations", orientations.rawValue] }
            if pageSize != 10 { arguments += ["--page-size", String(pageSize)] }
            if deadlineMs != 500 { arguments += ["--deadline-ms", String(deadlineMs)] }
            if let minScore { arguments += ["--min-score", minScore] }
            if exact { arguments += ["--exact"] }
            arguments += ["--page-token", token]
            print("Next page: " + arguments.map(shellQuoted).joined(separator: " "))
        }
    }
}
