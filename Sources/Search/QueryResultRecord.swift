/// The answer to one query image, as `glimpse query --json` prints it: one JSON object
/// per line,
///
///     {"query": PATH, "results": [{"kind", "id", "title", "subtitle", "score", "url"}],
///      "next_page_token": TOKEN|null, "partial": BOOL, "elapsed_ms": N}
public struct QueryResultRecord: Sendable, Hashable {
    /// The query image as given.
    public var query: String
    /// This page's results in rank order.
    public var results: [SearchResultRow]
    /// Token of the next page, `nil` on the last page.
    public var nextPageToken: String?
    /// Whether the deadline cut the scan short (see ``ResultPage/isPartial``).
    public var isPartial: Bool
    /// Wall time of decode, fingerprint and search, in milliseconds.
    public var elapsedMilliseconds: Int

    /// Creates a record.
    public init(query: String, results: [SearchResultRow], nextPageToken: String?, isPartial: Bool, elapsedMilliseconds: Int) {
        self.query = query
        self.results = results
        self.nextPageToken = nextPageToken
        self.isPartial = isPartial
        self.elapsedMilliseconds = elapsedMilliseconds
    }

    /// The record of one result page. O(page size).
    public init(query: String, page: ResultPage<VisualSearchResult>, elapsed: Duration) {
        self.init(query: query, results: page.items.map(SearchResultRow.init), nextPageToken: page.nextPageToken?.text,
                  isPartial: page.isPartial, elapsedMilliseconds: Self.milliseconds(elapsed))
    }

    /// The one-line JSON object, fields in the documented order. O(results).
    public var jsonLine: String {
        JSONText.object([
            ("query", JSONText.string(query)), ("results", JSONText.array(results.map(\.json))),
            ("next_page_token", JSONText.string(nextPageToken)), ("partial", isPartial ? "true" : "false"),
            ("elapsed_ms", String(elapsedMilliseconds)),
        ])
    }

    /// Whole milliseconds in `duration`, rounded to nearest.
    public static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int((Double(attoseconds) / 1e15).rounded())
    }
}
