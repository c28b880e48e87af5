/// Whether a catalog gets a first stage (``CandidateIndex``) beside its visual-index snapshot.
///
/// By size by default (``automatic``): a catalog gets one from ``automaticMinimumViews``
/// views, where searching through it (the cascade of
/// ``CandidateIndex/SearchParameters/unsureScores``, which gives the exhaustive scan's
/// answers) became faster than scanning every view on a workload where half the queries
/// match (docs/PERFORMANCE.md, "Where the first stage pays"): a query that matches is
/// answered by its candidates, one that matches nothing pays the first stage and the whole
/// scan. A catalog that has one is searched through it unless the search asks for
/// ``ScanStrategy/exhaustive``.
public enum FirstStagePolicy: String, Sendable, Hashable, CaseIterable {
    /// A first stage from ``automaticMinimumViews`` views, or whenever the catalog already
    /// had one (made by ``always``): brought up to date after a change. The default of
    /// `glimpse index` and of `glimpse serve`'s index builds.
    case automatic
    /// A first stage when the catalog had one (its file exists, current or not): brought up
    /// to date after a change; none is made for a catalog that had none.
    case keep
    /// A first stage whatever the catalog's size.
    case always
    /// No first stage: every search scans every view, and an existing first-stage file is
    /// removed.
    case never

    /// The smallest catalog, in views (about 26 per image of real photos), that ``automatic``
    /// gives a first stage: about 9,600 images. Measured by `benchmarks/first-stage-crossover.sh`
    /// (Intel Xeon, AVX-512 with VPOPCNTDQ; the first look's scan-below score on): with half
    /// the queries matching, the cascade's mean p50 was above the scan's at 79 k views on
    /// AVX-512 (0.68 against 0.52 ms; already below on AVX2) and below it on every
    /// instruction set from 259 k views (1.22 against 1.41 ms on AVX-512).
    public static let automaticMinimumViews = 250_000

    /// Whether an index of `views` views gets a first stage, `hadOne` saying whether the
    /// catalog had one. For one partition of a catalog, `views` is the whole catalog's
    /// (``PreparedSearchIndex/init(contents:minimumViewQuality:firstStage:hadFirstStage:partitions:)``),
    /// so that its partitions decide alike. O(1).
    public func wants(views: Int, hadOne: Bool) -> Bool {
        switch self {
        case .automatic: views >= Self.automaticMinimumViews || (hadOne && views > 0)
        case .keep: hadOne && views > 0
        case .always: views > 0
        case .never: false
        }
    }
}
