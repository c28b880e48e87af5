import ArgumentParser
import Catalog
import Foundation
import Search

/// `glimpse debug-first-stage`: builds (or rebuilds) the first-stage index of a catalog
/// whose snapshot is current, without indexing anything: for the scale benchmark, for
/// tuning the list count, and for measuring it against faiss on the same codes and queries
/// (`--export`, `--queries`; benchmarks/faiss-first-stage.sh). Hidden from `--help`.
struct FirstStageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-first-stage",
        abstract: "Build the first-stage index of a catalog's current snapshot, export or measure it (benchmark tool).",
        discussion: """
            Example:
              glimpse debug-first-stage --db /tmp/scale.sqlite --first-stage always --lists 16384
              glimpse debug-first-stage --db /tmp/scale.sqlite --first-stage always --export /tmp/codes

            With --export or --queries an up-to-date first stage is kept (--lists rebuilds it). \
            Prints one summary line, and with --queries one Markdown table row; exit 1 when the \
            catalog has no current snapshot, a file cannot be read or written, or a query line \
            is malformed.
            """,
        shouldDisplay: false
    )

    @OptionGroup var database: DatabaseOption

    @OptionGroup var firstStage: FirstStageOption

    @Option(help: "Lists (centroids), rounded up to a power of two (default: about 2√views).")
    var lists: Int?

    @Option(help: ArgumentHelp("Also write its entries (codes, owners, landmark ids) into DIR for other tools (benchmarks/faiss-first-stage.sh).", valueName: "dir"))
    var export: String?

    @Option(help: ArgumentHelp("Then answer the queries of this file (benchmarks/faiss/queries.py's format) through the first stage on one thread and print one table row: p50 / p99 and how often the exhaustive scan's first landmark is a candidate.", valueName: "file"))
    var queries: String?

    @Flag(help: "Build the first stage again even with --export or --queries (whose build time --queries' row then shows).")
    var rebuild = false

    @Option(help: ArgumentHelp("With --queries: first-stage parameters.", valueName: "probes,radius,candidates[,inner probe factor]"))
    var firstStageParameters: String?

    @Option(help: "With --queries: only this instruction set (portable, avx2, avx512; default the best the CPU has).")
    var isa: String?

    func validate() throws {
        if let lists, lists < 1 { throw ValidationError("--lists must be at least 1") }
    }

    func run() async throws {
        let store = try await database.openExisting()
        let started = ContinuousClock.now
        let action: VisualIndexSnapshot.FirstStageAction
        do {
            action = try await VisualIndexSnapshot.refreshFirstStage(store: store, path: database.snapshotPath, policy: firstStage.policy,
                                                                     lists: lists, rebuild: rebuild || (export == nil && queries == nil) || lists != nil)
        } catch { throw failure(error.description) }
        if case .notWritten(let reason) = action { throw failure("\(database.path): first stage not written: \(reason)") }
        print("\(database.path): \(action) in \(String(format: "%.1f", ProgressDisplay.seconds(ContinuousClock.now - started))) s.")
        guard export != nil || queries != nil else { return }
        guard let snapshotPath = database.snapshotPath,
              case .loaded(let index) = VisualIndexSnapshot.load(path: snapshotPath, expecting: try await store.catalogVersion()),
              let firstStage = index.firstStage else {
            throw failure("\(database.path): no current snapshot with a first stage")
        }
        if let export {
            do { try firstStage.exportEntries(landmarkIDs: index.landmarkIDs, to: export) } catch { throw failure(error.description) }
        }
        if let queries {
            let built: Duration? = if case .written = action { ContinuousClock.now - started } else { nil }
            try measure(firstStage, queriesAt: queries, built: built)
        }
    }
}
