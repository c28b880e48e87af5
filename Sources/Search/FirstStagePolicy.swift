/// Whether a catalog gets a first stage (``CandidateIndex``) beside its visual-index snapshot.
///
/// Opt-in: no size of catalog gets one by default. Its search, the cascade of
/// ``CandidateIndex/SearchParameters/unsureScores``, gives the exhaustive scan's answers
/// (0.9997 top-1 agreement on a million real crops; two in three matching queries answered
/// by its first look in a few milliseconds), but a query that matches nothing pays the
/// first stage and the exhaustive scan, and the catalog size below which the first stage
/// is slower than the scan is not measured yet (docs/PERFORMANCE.md, "The cascade"). A
/// catalog that has one is searched through it unless the search asks for
/// ``ScanStrategy/exhaustive``.
public enum FirstStagePolicy: String, Sendable, Hashable, CaseIterable {
    /// A first stage when the catalog had one (its file exists, current or not): brought up
    /// to date after a change. The default of `glimpse index`.
    case keep
    /// A first stage whatever the catalog's size.
    case always
    /// No first stage: every search scans every view, and an existing first-stage file is
    /// removed.
    case never

    /// Whether an index of `views` views gets a first stage, `hadOne` saying whether the
    /// catalog had one. O(1).
    public func wants(views: Int, hadOne: Bool) -> Bool {
        switch self {
        case .keep: hadOne && views > 0
        case .always: views > 0
        case .never: false
        }
    }
}
