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
    /// The first look alone, its glance included (``CandidateIndex/SearchParameters/firstLook``):
    /// never the whole first stage nor every view (every view when the index has no first
    /// stage); a glance sure of its answer ends it as in ``automatic(_:)``. The outcome's
    /// ``IndexSearchOutcome/firstStageBest`` says how sure it is: the first round of the
    /// cascade run across partitions (``forRound(_:)``). Parameters without a first look:
    /// ``firstStageOnly(_:)``.
    case firstLookOnly(CandidateIndex.SearchParameters)

    /// ``automatic(_:)`` with the default parameters.
    public static let `default` = ScanStrategy.automatic(CandidateIndex.SearchParameters())

    /// One round of the cascade run across the partitions of a catalog
    /// (``PartitionScan``), for an ``automatic(_:)`` strategy: ``firstLookOnly(_:)``, its
    /// glance and first look (``FirstStageRound/firstLook``; its whole first stage
    /// when it has no first look), or ``firstStageOnly(_:)``, its whole first stage without
    /// the first look (``FirstStageRound/full``). Any other strategy unchanged. O(1).
    public func forRound(_ round: FirstStageRound) -> ScanStrategy {
        guard case .automatic(var parameters) = self else { return self }
        if round == .firstLook, parameters.forFirstLook != nil { return .firstLookOnly(parameters) }
        parameters.firstLook = nil
        return .firstStageOnly(parameters)
    }

    /// This strategy for an index holding one of `partitions` partitions of a catalog, with a
    /// first stage of `lists` lists over `views` views (`lists` `nil`: no first stage): its
    /// parameters' share (``CandidateIndex/SearchParameters/share(ofPartitions:lists:views:)``),
    /// so that the partitions' first stages together read and score about what one first
    /// stage of the whole catalog would. ``exhaustive`` and an index without a first stage
    /// unchanged. O(log lists).
    public func forPartition(of partitions: Int, lists: Int?, views: Int) -> ScanStrategy {
        guard let lists else { return self }
        return switch self {
        case .automatic(let parameters): .automatic(parameters.share(ofPartitions: partitions, lists: lists, views: views))
        case .firstStageOnly(let parameters): .firstStageOnly(parameters.share(ofPartitions: partitions, lists: lists, views: views))
        case .firstLookOnly(let parameters): .firstLookOnly(parameters.share(ofPartitions: partitions, lists: lists, views: views))
        case .exhaustive: .exhaustive
        }
    }
}

/// Which part of its first stage a partition searches in one round of the cascade run
/// across partitions (``PartitionScan/firstStage(_:of:)``).
public enum FirstStageRound: String, Sendable, Hashable, Codable {
    /// The first look (``CandidateIndex/SearchParameters/firstLook``), its glance first: few
    /// lists, few candidates (``ScanStrategy/firstLookOnly(_:)``).
    case firstLook = "first_look"
    /// Every list the parameters read, without a first look.
    case full
}
