/// How a search finds the views worth scoring.
public enum ScanStrategy: Sendable, Hashable {
    /// The index's first stage (``CandidateIndex``) with these parameters when the index has
    /// one, every view otherwise: the default.
    case automatic(CandidateIndex.SearchParameters)
    /// Every view, even when the index has a first stage (`--exact`, `exact=true`): the
    /// reference the first stage is measured against.
    case exhaustive
    /// The first stage's candidates only, never every view when the index has a first stage
    /// (every view otherwise): ``automatic(_:)`` without its cascade's last step. The outcome's
    /// ``IndexSearchOutcome/firstStageBest`` says how sure the candidates are, so that a caller
    /// searching several indexes (the partitions of one catalog) decides on all of their
    /// candidates together whether every view must be scanned
    /// (``CandidateIndex/SearchParameters/unsureScores``), as one index over the whole catalog decides on its own.
    case firstStageOnly(CandidateIndex.SearchParameters)

    /// ``automatic(_:)`` with the default parameters.
    public static let `default` = ScanStrategy.automatic(CandidateIndex.SearchParameters())

    /// ``firstStageOnly(_:)`` with an ``automatic(_:)`` strategy's parameters; any other
    /// strategy unchanged. O(1).
    public var withoutCascade: ScanStrategy {
        if case .automatic(let parameters) = self { .firstStageOnly(parameters) } else { self }
    }
}
