import ArgumentParser
import Catalog
import Foundation
import Search

/// `--first-stage automatic|keep|always|never`: whether the catalog gets the first-stage index
/// beside its visual-index snapshot, for the commands that write the snapshot.
struct FirstStageOption: ParsableArguments {
    @Option(name: .customLong("first-stage"),
            help: ArgumentHelp("automatic (default): build the first-stage index beside the snapshot from \(FirstStagePolicy.automaticMinimumViews) views (about \(FirstStagePolicy.automaticMinimumViews / 26) images of photos), where searching through it is faster, or update it if the catalog has one; always: build it whatever the size (searches score only the landmarks it proposes and scan every view when the best of them scores under 0.45; query --exact always scans); never: remove it; keep: update it only if the catalog has one.",
                               valueName: "automatic|keep|always|never"))
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

extension CandidateIndex.SearchParameters {
    /// Parses `probes,radius,candidates[,inner probe factor[,shared entry budget[,unsure below[,unsure from[,first-look probes,first-look candidates,first-look sure score[,scan below[,its largest index[,glance candidates[,glance sure score]]]]]]]]]`
    /// (the hidden `--first-stage-parameters` of `eval`, `bench-search` and the debug
    /// commands, for tuning): whole numbers but the two scores (0…1; the cascade's
    /// ``CandidateIndex/SearchParameters/unsureScores`` is `from ..< below`, from 0 unless
    /// given, the default range when neither is; a `below` of 0 turns the cascade off); a
    /// budget of 0 is none; the first look (``CandidateIndex/SearchParameters/firstLook``) is
    /// the default one unless its three numbers are given (probes 0: none), its scan-below
    /// score (``CandidateIndex/SearchParameters/FirstLook/scanBelow``) the default unless a
    /// fourth is, the largest index it is used in
    /// (``CandidateIndex/SearchParameters/FirstLook/scanBelowMaximumViews``) unless a fifth is,
    /// its glance (``CandidateIndex/SearchParameters/FirstLook/glanceCandidates``, 0: none)
    /// unless a sixth is and the glance's sure score unless a seventh is. O(text).
    init(parsing text: String) throws {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        // Fields 5, 6, 9, 10 and 13 are scores; the others whole numbers.
        let numbers = (fields.prefix(5) + fields.dropFirst(7).prefix(2) + fields.dropFirst(11).prefix(2)).map { Int($0) }
        let scores = (fields.dropFirst(5).prefix(2) + fields.dropFirst(9).prefix(2) + fields.dropFirst(13)).map { Double($0) }
        guard (3...7).contains(fields.count) || (10...14).contains(fields.count), numbers.allSatisfy({ $0 != nil }),
              scores.allSatisfy({ $0.map { (0...1).contains($0) } == true }) else {
            throw failure("--first-stage-parameters wants probes,radius,candidates[,inner probe factor[,shared entry budget[,unsure below[,unsure from[,first-look probes,first-look candidates,first-look sure score[,first-look scan below[,its largest index in views[,glance candidates[,glance sure score]]]]]]]]] "
                + "(whole numbers but the scores, 0…1); got '\(text)'")
        }
        let whole = numbers.compactMap { $0 }, bounds = scores.compactMap { $0 }
        let below = bounds.first, from = bounds.count >= 2 ? bounds[1] : 0
        if let below, from > below { throw failure("--first-stage-parameters: the unsure scores start at \(from), above where they end (\(below))") }
        let look = fields.count < 10 ? CandidateIndex.SearchParameters.defaultFirstLook
            : whole[5] > 0 ? FirstLook(probes: whole[5], maximumCandidates: whole[6], sureScore: bounds[2],
                                       scanBelow: bounds.count >= 4 ? bounds[3] : CandidateIndex.SearchParameters.defaultFirstLook.scanBelow,
                                       scanBelowMaximumViews: whole.count >= 8 ? whole[7] : CandidateIndex.SearchParameters.defaultFirstLook.scanBelowMaximumViews,
                                       glanceCandidates: whole.count >= 9 ? whole[8] : CandidateIndex.SearchParameters.defaultFirstLook.glanceCandidates,
                                       glanceSureScore: bounds.count >= 5 ? bounds[4] : CandidateIndex.SearchParameters.defaultFirstLook.glanceSureScore) : nil
        self.init(probes: whole[0], radius: whole[1], maximumCandidates: whole[2],
                  innerProbeFactor: whole.count >= 4 ? whole[3] : CandidateIndex.SearchParameters().innerProbeFactor,
                  entryBudget: whole.count >= 5 && whole[4] > 0 ? whole[4] : nil,
                  unsureScores: below.map { $0 > 0 ? from ..< $0 : nil } ?? CandidateIndex.SearchParameters.defaultUnsureScores,
                  firstLook: look)
    }
}
