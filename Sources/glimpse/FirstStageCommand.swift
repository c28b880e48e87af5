import ArgumentParser
import Catalog
import Foundation
import Search

/// `glimpse debug-first-stage`: builds (or rebuilds) the first-stage index of a catalog
/// whose snapshot is current, without indexing anything: for the scale benchmark and for
/// tuning the list count. Hidden from `--help`: a measurement tool.
struct FirstStageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-first-stage",
        abstract: "Build the first-stage index of a catalog's current snapshot (benchmark tool).",
        discussion: """
            Example:
              glimpse debug-first-stage --db /tmp/scale.sqlite --first-stage always --lists 16384

            Prints one summary line; exit 1 when the catalog has no current snapshot or the \
            file cannot be written.
            """,
        shouldDisplay: false
    )

    @OptionGroup var database: DatabaseOption

    @OptionGroup var firstStage: FirstStageOption

    @Option(help: "Lists (centroids), rounded up to a power of two (default: about 2√views).")
    var lists: Int?

    func validate() throws {
        if let lists, lists < 1 { throw ValidationError("--lists must be at least 1") }
    }

    func run() async throws {
        let store = try await database.openExisting()
        let started = ContinuousClock.now
        let action: VisualIndexSnapshot.FirstStageAction
        do {
            action = try await VisualIndexSnapshot.refreshFirstStage(store: store, path: database.snapshotPath, policy: firstStage.policy,
                                                                     lists: lists, rebuild: true)
        } catch { throw failure(error.description) }
        if case .notWritten(let reason) = action { throw failure("\(database.path): first stage not written: \(reason)") }
        print("\(database.path): \(action) in \(String(format: "%.1f", ProgressDisplay.seconds(ContinuousClock.now - started))) s.")
    }
}
