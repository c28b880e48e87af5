import Catalog

/// One result page, as `glimpse query --json` prints it (one object per query image per
/// line) and as `POST /v1/search` answers it:
///
///     {"elapsed_ms": N, "next_page_token": TOKEN|null, "partial": BOOL, "query": PATH,
///      "reason": "not_informative", "results": [{"id", "kind", "score", "subtitle", "title", "url"}]}
///
/// `query` is present on the CLI only; a query image that failed has `error` (its
/// one-line reason) and no results. `reason` is present only on an empty page whose
/// query had no view a search can match (``notInformative``). `missing_partitions` (`["2/4"]`)
/// is present only on a partial page of a partitioned catalog whose partitions named did
/// not answer. Keys come out sorted (``WireJSON``). Golden files:
/// `testdata/wire/query-page.json`, `testdata/wire/query-failed.json`.
public struct QueryResultRecord: Sendable, Hashable, Codable {
    /// The query image as given (CLI), or `nil` (HTTP: the image was the request body).
    public var query: String?
    /// This page's results in rank order.
    public var results: [SearchResultRow]
    /// Token of the next page, `nil` on the last page.
    public var nextPageToken: String?
    /// Whether the deadline cut the scan short (see ``ResultPage/isPartial``).
    public var isPartial: Bool
    /// Wall time of decode, fingerprint and search, in milliseconds.
    public var elapsedMilliseconds: Int
    /// Why this query image failed (CLI, one line naming the file), or `nil`.
    public var error: String?
    /// Why an empty page is empty when it is not "nothing similar": ``notInformative``, or `nil`.
    public var reason: String?
    /// Partitions (`i/P`) no replica answered for (see ``ResultPage/missingPartitions``); empty otherwise.
    public var missingPartitions: [String]

    /// The `reason` of an empty page whose query had too little detail to search (a flat
    /// colour, a fine texture such as gravel or sand): only exact copies of catalog images
    /// were looked for, and there were none.
    public static let notInformative = "not_informative"

    /// Creates a record.
    public init(query: String?, results: [SearchResultRow], nextPageToken: String?, isPartial: Bool, elapsedMilliseconds: Int,
                error: String? = nil, reason: String? = nil, missingPartitions: [String] = []) {
        self.query = query
        self.missingPartitions = missingPartitions
        self.results = results
        self.nextPageToken = nextPageToken
        self.isPartial = isPartial
        self.elapsedMilliseconds = elapsedMilliseconds
        self.error = error
        self.reason = reason
    }

    /// The record of one result page. O(page size).
    public init(query: String?, page: ResultPage<VisualSearchResult>, elapsed: Duration, nextPageToken: String? = nil) {
        self.init(query: query, results: page.items.map(SearchResultRow.init), nextPageToken: nextPageToken ?? page.nextPageToken?.text,
                  isPartial: page.isPartial, elapsedMilliseconds: Self.milliseconds(elapsed),
                  reason: page.items.isEmpty && !page.isPartial && !page.queryIsSearchable ? Self.notInformative : nil,
                  missingPartitions: page.missingPartitions.map(\.description))
    }

    /// The record of a query image that failed: no results, `error` set. O(1).
    public static func failure(query: String?, reason: String, elapsed: Duration) -> QueryResultRecord {
        QueryResultRecord(query: query, results: [], nextPageToken: nil, isPartial: false,
                          elapsedMilliseconds: milliseconds(elapsed), error: reason)
    }

    enum CodingKeys: String, CodingKey {
        case query, results, error, reason
        case nextPageToken = "next_page_token"
        case isPartial = "partial"
        case elapsedMilliseconds = "elapsed_ms"
        case missingPartitions = "missing_partitions"
    }

    /// Decodes the JSON form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(query: try c.decodeIfPresent(String.self, forKey: .query), results: try c.decode([SearchResultRow].self, forKey: .results),
                  nextPageToken: try c.decodeIfPresent(String.self, forKey: .nextPageToken),
                  isPartial: try c.decode(Bool.self, forKey: .isPartial), elapsedMilliseconds: try c.decode(Int.self, forKey: .elapsedMilliseconds),
                  error: try c.decodeIfPresent(String.self, forKey: .error), reason: try c.decodeIfPresent(String.self, forKey: .reason),
                  missingPartitions: try c.decodeIfPresent([String].self, forKey: .missingPartitions) ?? [])
    }

    /// Encodes the JSON form: `next_page_token` always (`null` on the last page); `query`,
    /// `error`, `reason` and `missing_partitions` only when set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(query, forKey: .query)
        try c.encode(results, forKey: .results)
        try c.encode(nextPageToken, forKey: .nextPageToken)
        try c.encode(isPartial, forKey: .isPartial)
        try c.encode(elapsedMilliseconds, forKey: .elapsedMilliseconds)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(reason, forKey: .reason)
        if !missingPartitions.isEmpty { try c.encode(missingPartitions, forKey: .missingPartitions) }
    }

    /// The one-line JSON object. O(results).
    public var jsonLine: String { WireJSON.line(self) }

    /// Whole milliseconds in `duration`, rounded to nearest.
    public static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int((Double(attoseconds) / 1e15).rounded())
    }
}
