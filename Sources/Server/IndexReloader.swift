import Logging
import Metrics
import Search
import ServiceLifecycle

/// The service that loads the index at start-up and rebuilds it whenever the
/// ``CatalogChangeSource`` reports a change, then swaps it into the ``IndexHolder``.
/// Builds run one at a time, off the request path; requests keep using the previous index
/// until the swap, so no request fails because of a reload. A failed build keeps the old
/// index and is retried at the next change (or after a second).
public struct IndexReloader: Service {
    let store: any EntityStore
    let holder: IndexHolder
    let source: any CatalogChangeSource
    let rankingCacheCapacity: Int
    let metrics: ServerMetrics
    let logger: Logger
    let reloadRequests: AsyncStream<Void>.Continuation
    private let requests: AsyncStream<Void>

    /// Creates the reloader.
    init(store: any EntityStore, holder: IndexHolder, source: any CatalogChangeSource, rankingCacheCapacity: Int,
         metrics: ServerMetrics, logger: Logger) {
        self.store = store
        self.holder = holder
        self.source = source
        self.rankingCacheCapacity = rankingCacheCapacity
        self.metrics = metrics
        self.logger = logger
        (requests, reloadRequests) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a version check soon (after an admin change made by this server). O(1).
    func requestCheck() {
        reloadRequests.yield()
    }

    public func run() async throws {
        let continuation = reloadRequests
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Change notifications become check requests (coalesced to one pending).
                    try await source.run { continuation.yield() }
                }
                group.addTask {
                    // Retry a failed first load every second until one succeeds.
                    while holder.index == nil {
                        try await Task.sleep(for: .seconds(1))
                        continuation.yield()
                    }
                }
                await reloadIfChanged()
                // Ends when graceful shutdown finishes the stream.
                for await _ in requests {
                    await reloadIfChanged()
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
    }

    /// Builds and installs a new index when the catalog version differs from the served one.
    func reloadIfChanged() async {
        let served = holder.index?.prepared.version
        guard let version = try? store.catalogVersion(), version != served else { return }
        let started = ContinuousClock.now
        do {
            let store = store, capacity = rankingCacheCapacity
            // On a thread of its own, not the request executors: building is seconds of
            // CPU for big catalogs, and busy request threads must not delay it either.
            let index = try await DedicatedThread.run { () throws(CatalogStoreError) -> ServedIndex in
                try ServedIndex.build(store: store, rankingCacheCapacity: capacity)
            }
            holder.install(index)
            let elapsed = ContinuousClock.now - started
            metrics.indexInstalled(index, isReload: served != nil, seconds: elapsed)
            logger.info("index loaded", metadata: [
                "catalog": "\(index.prepared.version)", "views": "\(index.prepared.viewCount)",
                "landmarks": "\(index.prepared.landmarkCount)", "duration_ms": "\(QueryResultRecord.milliseconds(elapsed))",
            ])
        } catch {
            metrics.reloadFailed()
            logger.error("index build failed; keeping the previous index", metadata: ["reason": "\(error)"])
        }
    }
}
