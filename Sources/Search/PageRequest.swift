/// Which page of results to return, like App Intents' paged queries: a size, the token
/// of the previous page (none for the first page), and how long the search may take.
public struct PageRequest: Sendable, Hashable {
    /// Results per page, 1…1000.
    public var size: Int
    /// The previous page's ``ResultPage/nextPageToken``, or `nil` for the first page.
    public var token: PageToken?
    /// Time budget for the visual scan, counted from the call. When it runs out the scan
    /// stops and the page is marked ``ResultPage/isPartial``.
    public var deadline: Duration
    /// The lowest visual score a landmark needs to be a match (0…1); `nil`: the search's
    /// configured no-match threshold (``SimilarityScoring/noMatchThreshold``). Every page of
    /// one query must ask for the same value (it is part of what its page tokens name).
    public var minimumScore: Double?

    /// The default time budget, 500 ms.
    public static let defaultDeadline = Duration.milliseconds(500)

    /// Creates a request.
    public init(size: Int = 10, token: PageToken? = nil, deadline: Duration = PageRequest.defaultDeadline, minimumScore: Double? = nil) {
        self.size = size
        self.token = token
        self.deadline = deadline
        self.minimumScore = minimumScore
    }
}
