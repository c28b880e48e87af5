import ArgumentParser
import Catalog
import Foundation
import Search

/// `--first-stage keep|always|never`: whether the catalog gets the first-stage index beside its
/// visual-index snapshot, for the commands that write the snapshot.
struct FirstStageOption: ParsableArguments {
    @Option(name: .customLong("first-stage"),
            help: ArgumentHelp("always: build the first-stage index beside the snapshot, so searches score only the landmarks it proposes (faster on large catalogs, may miss matches; query --exact overrides); never: remove it; keep (default): update it if the catalog has one.",
                               valueName: "keep|always|never"))
    var policy: FirstStagePolicy = .keep

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

extension CandidateIndex.SearchParameters {
    /// Parses `probes,radius,candidates` (the hidden `--first-stage-parameters` of `eval` and
    /// `bench-search`, for tuning). O(text).
    init(parsing text: String) throws {
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (3...5).contains(values.count), values.allSatisfy({ $0 != nil }) else {
            throw failure("--first-stage-parameters wants whole numbers: probes,radius,candidates[,inner probe factor[,shared entry budget]]; got '\(text)'")
        }
        let numbers = values.compactMap { $0 }
        self.init(probes: numbers[0], radius: numbers[1], maximumCandidates: numbers[2],
                  innerProbeFactor: numbers.count >= 4 ? numbers[3] : CandidateIndex.SearchParameters().innerProbeFactor,
                  entryBudget: numbers.count == 5 && numbers[4] > 0 ? numbers[4] : nil)
    }
}
