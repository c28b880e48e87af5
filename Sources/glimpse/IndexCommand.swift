import ArgumentParser
import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import Search

/// `glimpse index SOURCE`: builds or refreshes the catalog database from a manifest or a
/// folder of images (``CatalogIndexer``), with progress and a summary.
struct IndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build or refresh the catalog from a manifest (JSON) or a folder of images.",
        discussion: """
            Unchanged files are skipped (size, modification time, content hash); changed and \
            new ones are fingerprinted on every core. A file that fails is reported on stderr \
            with its path and reason and never stops the others. The new catalog is written \
            in one transaction: an interrupted run leaves the previous catalog intact, and \
            re-running finishes the job.

            With --add the source adds to the catalog instead of being all of it: landmarks \
            and collections it does not name are kept, a collection it names gains its \
            members, and the write reads only what the source names, so adding a folder to a \
            catalog of a million images takes as long as the folder, not the catalog.

            An image with too little detail (PDQ quality under 10 in every view covering most \
            of it: a flat colour, a fine texture such as gravel or sand, thin lines on white) is indexed \
            but cannot be found by a search, only by an exact copy of the file or of its \
            pixels; the summary counts such images and --verbose lists them.

            Example:
              glimpse index testdata/catalog/manifest.json --db glimpse.sqlite
              glimpse index ~/Pictures/landmarks --verbose
              glimpse index ~/Pictures/new-arrivals --add

            Exit codes: 0 success; 1 usage or input error (unreadable or invalid source); \
            2 some files failed (the others are indexed).
            """
    )

    @Argument(help: ArgumentHelp("A manifest file (JSON) or a folder of PNG/JPEG/WebP/HEIF/AVIF images.", valueName: "source"))
    var source: String

    @OptionGroup var database: DatabaseOption

    @OptionGroup var snapshot: SnapshotOption

    @OptionGroup var firstStage: FirstStageOption

    @Option(name: .customLong("jobs"), help: "Files fingerprinted at once (default: every core).")
    var jobsOption: Int?

    @Option(help: ArgumentHelp(
        "Partitions of a new PostgreSQL catalog, each servable by its own replicas (default 1; an existing catalog must have this many).",
        valueName: "count"))
    var partitions: Int?

    @Flag(help: "Add the source to the catalog: keep the landmarks and collections it does not name (default: the source is the whole catalog).")
    var add = false

    @Flag(help: "List every image a search cannot find (too little detail), one per line.")
    var verbose = false

    @Flag(help: "Print the run's report as one JSON object (counts, failed and unsearchable paths) instead of the summary.")
    var json = false

    /// `--add`: add to the catalog, or replace it.
    var mode: IndexMode { add ? .add : .replace }

    /// `--jobs`, or every core.
    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if let partitions, !(1...CatalogPartition.maximumCount).contains(partitions) {
            throw ValidationError(CatalogPartitionError.badCount(partitions).description)
        }
    }

    func run() async throws {
        guard DirectoryListing.exists(source) else {
            throw failure("\(source): no such file or folder")
        }
        let isFolder = DirectoryListing.isFolder(source)
        let store = try await database.openOrCreate(partitionCount: partitions)
        let indexer = CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog, maxConcurrency: jobs)
        let progress = ProgressDisplay(command: "index", unit: "files")
        let started = ContinuousClock.now
        let report: IndexReport
        do {
            report = try await (isFolder
                ? indexer.index(FolderCatalogSource(folderPath: source), mode: mode) { progress.update($0) }
                : indexer.index(ManifestCatalogSource(manifestPath: source), mode: mode) { progress.update($0) })
        } catch {
            progress.finishLine()
            throw database.storeFailure(error)
        }
        progress.finishLine()
        for failed in report.failed {
            // Decoder reasons already start with the path; never print it twice.
            printError("glimpse: " + (failed.reason.hasPrefix(failed.path + ":") ? failed.reason : "\(failed.path): \(failed.reason)"))
        }
        var summary = "Indexed \(source) into \(database.path): \(report.added.count) added, \(report.updated.count) updated, "
            + "\(report.unchanged.count) skipped (unchanged), \(report.failed.count) failed"
        let removed = report.removedLandmarks.count + report.removedCollections.count
        if removed > 0 { summary += ", \(removed) removed (gone from the source; 'glimpse catalog undo' restores them)" }
        if !report.restored.isEmpty { summary += ", \(report.restored.count) restored" }
        // The visual-index snapshot (beside an SQLite catalog, or where --snapshot says), so
        // queries start without reading every fingerprint (a PostgreSQL catalog without
        // --snapshot has none: readers build in memory).
        // An --add run keeps the snapshot while the changes since it are small: searches map
        // it and apply them from the change log (IncrementalVisualIndex.opened); past that, or
        // on a replace run, it is rewritten.
        if let snapshotPath = snapshot.path(for: database), try await !keepsSnapshot(store: store, at: snapshotPath) {
            let written: VisualIndexSnapshot.RefreshAction
            do { written = try await VisualIndexSnapshot.rewrite(store: store, path: snapshotPath, replacing: snapshot.replacement) } catch { throw failure(error.description) }
            if case .notWritten(let reason) = written { printError("glimpse: warning: visual-index snapshot not written (\(reason)); queries will build the index in memory") }
            else { _ = try await firstStage.refresh(store: store, snapshotPath: snapshotPath) }
        }
        if json {
            print(IndexReportRecord(report, elapsed: ContinuousClock.now - started).jsonLine)
        } else {
            print(summary + String(format: " in %.1f s.", ProgressDisplay.seconds(ContinuousClock.now - started)))
            printUnsearchable(report.unsearchable)
        }
        if !report.failed.isEmpty { throw ExitCode(ExitStatus.someFilesFailed.rawValue) }
    }
}

extension IndexCommand {
    /// Whether an `--add` run leaves the visual-index snapshot as it is: it is sound and of
    /// this catalog, and the changes since it are few enough to apply at every open.
    /// - Complexity: the snapshot's checks on open plus the changes since.
    private func keepsSnapshot(store: any EntityStore, at path: String) async throws -> Bool {
        guard mode == .add else { return false }
        do { return try await IncrementalVisualIndex.opened(snapshotAt: path, store: store) != nil } catch { throw database.storeFailure(error) }
    }

    /// The count of images a search cannot find, and with `--verbose` their paths.
    private func printUnsearchable(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        let images = paths.count == 1 ? "1 image has" : "\(paths.count) images have"
        print("\(images) too little detail to be found by a search (PDQ quality under \(FingerprintView.minimumSearchableQuality): "
            + "flat colour, fine texture or thin lines); only an exact copy finds \(paths.count == 1 ? "it" : "them")"
            + (verbose ? ":" : " (--verbose lists them)."))
        if verbose { for path in paths { print("  \(shown(path))") } }
    }
}

extension ProgressDisplay {
    /// Shows one step of an indexing run.
    func update(_ step: IndexProgress) {
        update(stage: step.phase.rawValue, unit: step.phase == .writing ? "entities" : "files", completed: step.completed, total: step.total,
               detail: step.path.map { URL(fileURLWithPath: $0).lastPathComponent })
    }
}
