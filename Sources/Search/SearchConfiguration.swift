/// The tunable constants of ranking. The defaults are the documented operating point.
public struct SearchConfiguration: Sendable, Hashable {
    /// Distance fusion, score mapping and the no-match threshold.
    public var scoring: SimilarityScoring
    /// Added to a matching landmark's score per query label equal (case-insensitively) to
    /// one of its keywords. Only landmarks that already match visually (score ≥ the
    /// no-match threshold) are boosted: labels never create a match on their own.
    public var labelBoostPerLabel: Double
    /// Most a landmark's score can gain from labels.
    public var maximumLabelBoost: Double
    /// A collection scores its best matching member's score plus this much per additional
    /// matching member (at most ``collectionBonusMaximumMembers`` of them), capped at 1.
    public var collectionBonusPerExtraMember: Double
    /// How many additional matching members earn the collection bonus.
    public var collectionBonusMaximumMembers: Int
    /// At most this many landmarks are ranked per query (the best ones).
    public var maximumLandmarkResults: Int
    /// Whether the first stage proposes the landmarks to score or every view is scanned.
    public var strategy: ScanStrategy

    /// Creates a configuration; every parameter has the documented default.
    public init(
        scoring: SimilarityScoring = .default, labelBoostPerLabel: Double = 0.05, maximumLabelBoost: Double = 0.10,
        collectionBonusPerExtraMember: Double = 0.02, collectionBonusMaximumMembers: Int = 5, maximumLandmarkResults: Int = 100,
        strategy: ScanStrategy = .default
    ) {
        self.scoring = scoring
        self.labelBoostPerLabel = labelBoostPerLabel
        self.maximumLabelBoost = maximumLabelBoost
        self.collectionBonusPerExtraMember = collectionBonusPerExtraMember
        self.collectionBonusMaximumMembers = collectionBonusMaximumMembers
        self.maximumLandmarkResults = maximumLandmarkResults
        self.strategy = strategy
    }
}
