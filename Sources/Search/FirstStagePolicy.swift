/// When a catalog gets a first stage (``CandidateIndex``) beside its visual-index snapshot.
public enum FirstStagePolicy: String, Sendable, Hashable, CaseIterable {
    /// From ``CandidateIndex/automaticMinimumViews`` views on, where it is faster than the
    /// exhaustive scan.
    case automatic = "auto"
    /// Whatever the catalog's size (benchmarks and tests of small catalogs).
    case always
    /// Never: every search scans every view, and an existing first-stage file is removed.
    case never

    /// Whether an index of `views` views gets a first stage. O(1).
    public func wants(views: Int) -> Bool {
        switch self {
        case .automatic: views >= CandidateIndex.automaticMinimumViews
        case .always: views > 0
        case .never: false
        }
    }
}
