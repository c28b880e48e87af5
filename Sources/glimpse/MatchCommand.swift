import ArgumentParser
import Catalog
import Fingerprints
import Foundation
import Matching
import PixelBuffers
import Rendering
import Search

/// `glimpse match FOLDER`: matches every photo under a folder against the catalog
/// (``BatchMatcher``), one row per photo, resumable, with an optional HTML contact sheet.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Match every photo under a folder against the catalog, one result row per photo.",
        discussion: """
            Every PNG, JPEG, WebP, HEIF or AVIF under FOLDER, recursively (recognised by its bytes; files named \
            .jpg/.jpeg/.png/.webp/.heic/.heif/.avif that are not images get an error row), is decoded at the scale the \
            fingerprint needs, fingerprinted and searched, --jobs at a time. Each row holds the \
            photo's best landmarks (score 0…1), or no match, or the error; rows keep the folder's \
            sorted order.

            Rows go to --out (or stdout) as JSON Lines:
              {"photo": PATH, "status": "matched"|"no_match"|"error", "matches": [{"kind", "id", \
            "title", "subtitle", "score", "url"}], "error": REASON|null}
            or CSV (--format csv): photo,status,best_id,best_title,best_score,best_url,matches,error

            Resumable: each row is appended as one write as soon as it is ready; re-running with \
            the same FOLDER and --out skips the photos already written (a partial last line left \
            by an interruption is dropped and redone).

            Example:
              glimpse match ~/Photos --out matches.jsonl --report matches.html
              glimpse match testdata/negatives --format csv --jobs 2
              glimpse match testdata/catalog/food --region-fraction 0.1,0.1,0.8,0.8

            Exit codes: 0 success; 1 usage or input error (missing folder or catalog, unusable \
            --out); 2 some photos failed (their rows say why) or a sub-folder could not be read \
            (named on stderr).
            """
    )

    @Argument(help: ArgumentHelp("The folder of photos (searched recursively).", valueName: "folder"))
    var folder: String

    @Flag(help: "Scan every view even when the catalog has a first-stage index (the reference the first stage is measured against).")
    var exact = false

    @OptionGroup var database: DatabaseOption

    @OptionGroup var snapshot: SnapshotOption

    @Option(help: "Orientations of the picture tried: upright, upright-mirror or all (rotations by 90°, 180°, 270°, flips, transposes).")
    var orientations: QueryOrientations = .all

    @Option(help: ArgumentHelp("Append rows to this file, resuming after the photos it already holds (default: stdout).", valueName: "file"))
    var out: String?

    @Option(help: "Row format: jsonl or csv (default: from --out's extension, else jsonl).")
    var format: MatchOutputFormat?

    @Option(name: .customLong("jobs"), help: "Photos processed at once (default: every core).")
    var jobsOption: Int?

    /// `--jobs`, or every core.
    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }

    @Option(help: "Best landmarks kept per photo (1…1000, the page sizes of query and the HTTP API).")
    var matches: Int = 3

    @Option(help: ArgumentHelp("Search only this part of every photo, as fractions of the upright photo (0…1; the grammar of query's --region-fraction).", valueName: "x,y,w,h"))
    var regionFraction: String?

    @Option(help: ArgumentHelp("Lowest score that counts as a match, 0…1 (default: the calibrated \(SimilarityScoring.defaultNoMatchThreshold); query's --min-score).", valueName: "score"))
    var minScore: String?

    @Option(help: ArgumentHelp("Also write a self-contained HTML contact sheet of every row in --out (or of this run).", valueName: "report.html"))
    var report: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        _ = try searchRequest()
    }

    /// Each photo's search as the one ``SearchRequest`` (the limits and grammar of `glimpse query`
    /// and `POST /v1/search`); `--matches` is its page size.
    private func searchRequest() throws -> SearchRequest {
        do {
            return try SearchRequest(parsing: .init(regionFraction: regionFraction, pageSize: String(matches), exact: String(exact),
                                                    minimumScore: minScore))
        } catch {
            throw ValidationError(error.message(naming: { $0 == .pageSize ? "--matches" : $0.optionName }))
        }
    }

    private var rowFormat: MatchOutputFormat {
        if let format { return format }
        return out.map { $0.lowercased().hasSuffix(".csv") } == true ? .csv : .jsonl
    }

    func run() async throws {
        if let report {
            do { try OutputFile.checkDestination(report) } catch { throw failure("\(report): cannot write the report: \(error.description)") }
        }
        let store = try await database.openExisting()
        let scan: PhotoFolder
        do { scan = try PhotoFolder(scanning: folder) } catch { throw failure(error.description) }
        var file: MatchResultFile?
        if let out {
            do { file = try MatchResultFile(path: out, format: rowFormat) } catch { throw failure(error.description) }
        }
        // Rows name photos as shown (raw bytes of names that are not UTF-8 as \xHH): resume
        // compares those, and the contact sheet maps them back to the files.
        let rawByShown = Dictionary(scan.photos.map { (Self.rowName($0), $0) }, uniquingKeysWith: { a, _ in a })
        let done = file?.donePhotos ?? []
        let todo = scan.photos.filter { !done.contains(Self.rowName($0)) }
        for folder in scan.unreadableFolders { printError("glimpse: \(folder.description)") }
        if file == nil && rowFormat == .csv { writeLine(PhotoMatchRecord.csvHeader) }

        let fingerprinting = ImageFingerprinter.query(orientations: orientations)
        // --jobs photos at once: each search scans on its share of the cores.
        let request = try searchRequest()
        var configuration = SearchConfiguration()
        if request.exact { configuration.strategy = .exhaustive }
        let search = VisualSearchQuery(store: store, configuration: configuration, snapshotPath: snapshot.path(for: database),
                                       snapshotReplacement: snapshot.replacement, scanThreads: AvailableCores.share(among: jobs), fingerprinter: fingerprinting)
        await noteOutdatedFingerprints(search, database: database)
        let matcher = BatchMatcher(query: search, fingerprinter: fingerprinting, jobs: jobs, request: request)
        let progress = ProgressDisplay(command: "match", unit: "photos")
        var records: [PhotoMatchRecord] = []
        let started = ContinuousClock.now
        do {
            let output = file
            try await matcher.match(todo) { record, completed in
                var record = record
                record.photo = Self.rowName(record.photo)
                record.error = record.error.map(Self.rowName)
                if let output { try output.append(record) } else { writeLine(rowFormat.line(record)) }
                if record.status == .failed, let reason = record.error { progress.note("glimpse: \(reason)") }
                records.append(record)
                progress.update(stage: "matching", completed: completed, total: todo.count,
                                detail: URL(fileURLWithPath: record.photo).lastPathComponent)
            }
        } catch {
            progress.finishLine()
            throw database.storeFailure(error)
        }
        progress.finishLine()
        let seconds = ProgressDisplay.seconds(ContinuousClock.now - started)
        let counts = Dictionary(grouping: records, by: \.status).mapValues(\.count)
        var summary = "Matched \(records.count) photos from \(folder): \(counts[.matched] ?? 0) matched, "
            + "\(counts[.noMatch] ?? 0) no match, \(counts[.failed] ?? 0) failed"
        if !scan.unreadableFolders.isEmpty { summary += ", \(scan.unreadableFolders.count) unreadable folder\(scan.unreadableFolders.count == 1 ? "" : "s")" }
        if !done.isEmpty { summary += "; \(scan.photos.count - todo.count) already in \(out ?? "")" }
        if !records.isEmpty { summary += String(format: "; %.1f s, %.1f photos/s with %d jobs", seconds, Double(records.count) / max(seconds, 1e-9), jobs) }
        printError(summary + ".")

        if let report {
            let all = ((file?.existingRecords ?? []) + records).map { record in
                var record = record
                record.photo = rawByShown[record.photo] ?? record.photo
                return record
            }
            try await writeReport(all, store: store, to: report)
        }
        if (counts[.failed] ?? 0) > 0 || !scan.unreadableFolders.isEmpty { throw ExitCode(ExitStatus.someFilesFailed.rawValue) }
    }

    /// A photo path (or a message naming one) as written in a row: bytes of a name that
    /// are not UTF-8 as `\xHH`; control characters are left to the row format's quoting.
    static func rowName(_ path: String) -> String {
        FileSystemPath.displayName(path, escapingControlCharacters: false)
    }

    /// One unbuffered write of a row to stdout, so an interrupted run loses no finished row.
    private func writeLine(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func writeReport(_ records: [PhotoMatchRecord], store: any EntityStore, to path: String) async throws {
        let ids = Array(Set(records.flatMap { $0.matches.filter { $0.kind == .landmark }.map(\.id) })).sorted()
        let landmarks: [LandmarkEntity]
        do { landmarks = try await store.landmarks(ids: ids) } catch { throw database.storeFailure(error) }
        var thumbnails: [String: String] = [:]
        for landmark in landmarks { thumbnails[landmark.url] = landmark.displayRepresentation.thumbnailPath }
        let progress = ProgressDisplay(command: "match", unit: "images")
        let html = await ContactSheet(title: "Glimpse matches: \(folder)", jobs: jobs).html(records: records, landmarkThumbnails: thumbnails) {
            progress.update(stage: "thumbnails", completed: $0, total: $1)
        }
        progress.finishLine()
        do { try OutputFile.write(Array(html.utf8), to: path) } catch {
            throw failure("\(path): cannot write the report: \(error.description)")
        }
        printError("Wrote the contact sheet of \(records.count) photos to \(path).")
    }
}

extension MatchOutputFormat: ExpressibleByArgument {}
