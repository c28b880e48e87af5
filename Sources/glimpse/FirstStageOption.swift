import ArgumentParser
import Catalog
import Search

/// `--first-stage auto|always|never`: whether the catalog gets the first-stage index beside
/// its visual-index snapshot, for the commands that write the snapshot.
struct FirstStageOption: ParsableArguments {
    @Option(name: .customLong("first-stage"),
            help: ArgumentHelp("Build the first-stage index beside the snapshot: auto (from 1,048,576 views), always or never.",
                               valueName: "auto|always|never"))
    var policy: FirstStagePolicy = .automatic

    /// Brings the first stage of the snapshot at `snapshotPath` up to date; a first stage
    /// wanted but not written is a warning on stderr (searches then scan every view).
    func refresh(store: any EntityStore, snapshotPath: String?) async throws -> VisualIndexSnapshot.FirstStageAction {
        let action: VisualIndexSnapshot.FirstStageAction
        do { action = try await VisualIndexSnapshot.refreshFirstStage(store: store, path: snapshotPath, policy: policy) } catch { throw failure(error.description) }
        if case .notWritten(let reason) = action, policy != .never, snapshotPath != nil {
            printError("glimpse: warning: first-stage index not written (\(reason)); searches will scan every view")
        }
        return action
    }
}

extension FirstStagePolicy: ExpressibleByArgument {}
