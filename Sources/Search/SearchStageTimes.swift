/// When each stage of one search ran, for traces and logs: the scan of the index, the ranking
/// (the matched landmarks read and ranked with their collections) and the page's entity reads.
/// A page cut from a cached ranking has no scan or ranking.
///
/// Times are on the continuous clock; equality ignores them (two pages with the same results
/// are equal however long they took).
public struct SearchStageTimes: Sendable, Hashable {
    /// The index scan (first stage and exact scores, or the exhaustive scan); nil when the
    /// ranking came from the cache.
    public var indexSearch: Range<ContinuousClock.Instant>?
    /// Reading the matched landmarks and ranking them with their collections; nil when cached.
    public var ranking: Range<ContinuousClock.Instant>?
    /// Reading the page's collections from the store.
    public var entityReads: Range<ContinuousClock.Instant>?
    /// A replica of one partition: how much longer the search of every partition took than
    /// the slowest partition's own scan (this replica's, or another's as it reported it):
    /// the cost of the fan-out (requests, encoding, waiting, merging). nil otherwise, and
    /// when a partition did not answer.
    public var fanOutOverhead: Duration?

    /// No stage timed yet.
    /// - Complexity: O(1).
    public init(indexSearch: Range<ContinuousClock.Instant>? = nil, ranking: Range<ContinuousClock.Instant>? = nil,
                entityReads: Range<ContinuousClock.Instant>? = nil) {
        self.indexSearch = indexSearch
        self.ranking = ranking
        self.entityReads = entityReads
    }

    /// Always true: timings are not part of a page's value.
    public static func == (lhs: SearchStageTimes, rhs: SearchStageTimes) -> Bool { true }
    /// Nothing: timings are not part of a page's value.
    public func hash(into hasher: inout Hasher) {}
}
