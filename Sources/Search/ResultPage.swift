import Catalog

/// One value of a result page with its score.
public struct ScoredValue<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The result.
    public var value: Value
    /// Its score in 0…1, higher is better (for landmarks: visual similarity plus any
    /// label boost; for collections: the aggregate of their matching landmarks).
    public var score: Double
    /// For landmarks, the query labels that matched its keywords (and boosted it).
    public var matchedLabels: [String]

    /// Creates a scored value.
    public init(value: Value, score: Double, matchedLabels: [String] = []) {
        self.value = value
        self.score = score
        self.matchedLabels = matchedLabels
    }
}

/// One page of a ranked result list.
public struct ResultPage<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The page's results in rank order.
    public var items: [ScoredValue<Value>]
    /// Continues with the next page; `nil` on the last page.
    public var nextPageToken: PageToken?
    /// Whether the deadline cut the visual scan short: the ranking covers only part of the
    /// catalog, so a result may be missing or ranked lower than a full scan would.
    public var isPartial: Bool
    /// Partitions of a partitioned catalog that no replica answered for: their landmarks
    /// (and the collection scores they would add) are missing, and ``isPartial`` is `true`.
    /// Empty for a complete answer.
    public var missingPartitions: [CatalogPartition] = []
    /// Number of results in the whole ranking (all pages).
    public var totalCount: Int
    /// Position of the first item in the whole ranking.
    public var offset: Int
    /// The catalog state the results come from.
    public var catalogVersion: CatalogVersion
    /// Whether the query had a view a search can match (PDQ quality at least the scoring's
    /// `minimumViewQuality`). When not (a flat colour, a fine texture), only exact copies
    /// of catalog images were looked for, so an empty page means "too little detail to
    /// search", not "nothing similar".
    public var queryIsSearchable: Bool
    /// When the search's stages ran (not part of the page's value: see ``SearchStageTimes``).
    public var stageTimes = SearchStageTimes()

    /// Creates a page.
    public init(items: [ScoredValue<Value>], nextPageToken: PageToken?, isPartial: Bool, totalCount: Int, offset: Int, catalogVersion: CatalogVersion,
                queryIsSearchable: Bool = true) {
        self.items = items
        self.nextPageToken = nextPageToken
        self.isPartial = isPartial
        self.totalCount = totalCount
        self.offset = offset
        self.catalogVersion = catalogVersion
        self.queryIsSearchable = queryIsSearchable
    }

    /// The results without scores.
    public var values: [Value] { items.map(\.value) }
}
