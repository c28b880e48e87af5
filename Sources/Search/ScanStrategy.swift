/// How a search finds the views worth scoring.
public enum ScanStrategy: Sendable, Hashable {
    /// The index's first stage (``CandidateIndex``) with these parameters when the index has
    /// one, every view otherwise: the default.
    case automatic(CandidateIndex.SearchParameters)
    /// Every view, even when the index has a first stage (`--exact`, `exact=true`): the
    /// reference the first stage is measured against.
    case exhaustive

    /// ``automatic(_:)`` with the default parameters.
    public static let `default` = ScanStrategy.automatic(CandidateIndex.SearchParameters())
}
