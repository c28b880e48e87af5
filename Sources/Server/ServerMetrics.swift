import Catalog
import Metrics
import Prometheus
import Search

/// The server's metrics, through swift-metrics into its own Prometheus registry (no
/// process-global bootstrap, so several servers can live in one test process):
///
/// - `glimpse_http_requests_total{method,route,status}` and
///   `glimpse_http_request_duration_seconds{method,route,status}` (histogram);
/// - `glimpse_rejected_requests_total{reason}` (refusals by a limit, 408, 413, 429, 503, under
///   their error code: `too_many_requests`, `uploads_busy`, `not_ready`…);
/// - `glimpse_request_body_bytes_held` (request bodies being read or held, in bytes);
/// - `glimpse_index_views`, `glimpse_index_landmarks`, `glimpse_index_generation`,
///   `glimpse_index_build_seconds`, `glimpse_index_mapped` (1 when the index's base is the
///   memory-mapped visual-index snapshot, 0 when it was built from the catalog in memory),
///   `glimpse_index_reloads_total`, `glimpse_index_reload_failures_total`;
/// - `glimpse_search_rankings_total{source}` (search pages by where their ranking came from:
///   `scanned` by the request, or `reused`: kept from an earlier identical search, or shared
///   with one running at the same time).
public final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory

    /// Creates empty metrics with their own registry.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
        ]
        self.factory = factory
    }

    /// Counts one answered request and records its duration. O(1) amortised.
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let dimensions = [("method", method), ("route", route), ("status", String(status))]
        Counter(label: "glimpse_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Timer(label: "glimpse_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Counts a request refused by a limit (`reason` is the error code).
    func recordRejection(_ reason: String) {
        Counter(label: "glimpse_rejected_requests_total", dimensions: [("reason", reason)], factory: factory).increment()
    }

    /// Records the request body bytes held by all requests together. O(1).
    func bodyBytesHeld(_ bytes: Int) {
        Gauge(label: "glimpse_request_body_bytes_held", factory: factory).record(bytes)
    }

    /// Records a newly installed index.
    func indexInstalled(_ index: ServedIndex, isReload: Bool, seconds: Duration) {
        Gauge(label: "glimpse_index_views", factory: factory).record(index.prepared.viewCount)
        Gauge(label: "glimpse_index_landmarks", factory: factory).record(index.prepared.landmarkCount)
        Gauge(label: "glimpse_index_generation", factory: factory).record(index.prepared.version.generation)
        Gauge(label: "glimpse_index_build_seconds", factory: factory)
            .record(Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18)
        Gauge(label: "glimpse_index_mapped", factory: factory).record(index.prepared.isMapped ? 1 : 0)
        let reloads = Counter(label: "glimpse_index_reloads_total", factory: factory)
        if isReload { reloads.increment() }
    }

    /// Counts a failed index build.
    func reloadFailed() {
        Counter(label: "glimpse_index_reload_failures_total", factory: factory).increment()
    }

    /// Counts one save of the replica's own visual-index snapshot after a full build, by
    /// outcome: `written`, `failed` (could not be written), `refused` (the path holds
    /// something that is not this catalog's snapshot, left as it is). O(1).
    func snapshotSaved(outcome: String) {
        Counter(label: "glimpse_snapshot_saves_total", dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    /// Counts one search page by where its ranking came from: `scanned` (the request
    /// searched the index) or `reused` (a kept ranking, or one an identical search running at
    /// the same time made). O(1).
    func recordSearchRanking(reused: Bool) {
        Counter(label: "glimpse_search_rankings_total", dimensions: [("source", reused ? "reused" : "scanned")], factory: factory).increment()
    }

    /// Counts one request to another partition's replica, by outcome (`ok`, `failed`: refused,
    /// timed out, or a bad answer; the partition's twin is asked next). O(1).
    func recordPartitionAttempt(failed: Bool) {
        Counter(label: "glimpse_partition_requests_total", dimensions: [("outcome", failed ? "failed" : "ok")], factory: factory).increment()
    }

    /// Counts one answer this replica gave another partition's replica, by how much of its
    /// partition it searched: `first_stage` (its candidates only: the asker runs the cascade
    /// over every partition's) or `every_view` (a scan of every view: asked for one, or no
    /// first stage to answer from). O(1).
    func recordPartitionAnswer(everyView: Bool) {
        Counter(label: "glimpse_partition_answers_total", dimensions: [("scan", everyView ? "every_view" : "first_stage")], factory: factory).increment()
    }

    /// Counts a search for which no replica of one partition answered (a page marked partial). O(1).
    func recordMissingPartition() {
        Counter(label: "glimpse_partition_missing_total", factory: factory).increment()
    }

    /// The Prometheus text exposition of every metric. O(metrics).
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
