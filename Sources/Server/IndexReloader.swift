import Logging
import Metrics
import Search
import ServiceLifecycle

/// The service that loads the index at start-up and rebuilds it whenever the
/// `CatalogChangeWatcher` reports a change (PostgreSQL: at once through LISTEN/NOTIFY;
/// every store: a version poll as the fallback), then swaps it into the ``IndexHolder``.
/// Builds run one at a time, off the request path; requests keep using the previous index
/// until the swap, so no request fails because of a reload. A failed build keeps the old
/// index and is retried at the next change (or after a second).
public struct IndexReloader: Service {
    let store: any EntityStore
    let holder: IndexHolder
    let watcher: CatalogChangeWatcher
    let rankingCacheCapacity: Int
    let metrics: ServerMetrics
    let logger: Logger
    let reloadRequests: AsyncStream<Void>.Continuation
    private let requests: AsyncStream<Void>

    /// Creates the reloader.
    init(store: any EntityStore, holder: IndexHolder, watcher: CatalogChangeWatcher, rankingCacheCapacity: Int,
         metrics: ServerMetrics, logger: Logger) {
        self.store = store
        self.holder = holder
        self.watcher = watcher
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
                // High priority: under request load these few short steps must not queue
                // behind searches, or a reload would land seconds late.
                group.addTask(priority: .high) {
                    // Change notifications become check requests (coalesced to one pending).
                    // Runs until cancelled.
                    await watcher.run { _ in continuation.yield() }
                }
                group.addTask(priority: .high) {
                    // Retry a failed first load every second until one succeeds (then idle).
                    while !Task.isCancelled {
                        try await Task.sleep(for: .seconds(1))
                        if holder.index == nil { continuation.yield() }
                    }
                }
                group.addTask(priority: .high) {
                    await reloadIfChanged()
                    // Ends when graceful shutdown finishes the stream.
                    for await _ in requests {
                        await reloadIfChanged()
                    }
                }
                // The first task to end is the reload loop (graceful shutdown); the others
                // stop with it.
                _ = try await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
    }

    /// Builds and installs a new index when the catalog version differs from the served one.
    func reloadIfChanged() async {
        let served = holder.index?.prepared.version
        guard let version = try? await store.catalogVersion(), version != served else { return }
        let started = ContinuousClock.now
        do {
            // The reads are awaited (the store's own I/O); the build is CPU only.
            let contents = try await PreparedSearchIndex.read(from: store)
            let store = store, capacity = rankingCacheCapacity
            // On a thread of its own, not the request executors: building is seconds of
            // CPU for big catalogs, and busy request threads must not delay it either.
            let index = try await DedicatedThread.run { () -> ServedIndex in
                ServedIndex.build(store: store, contents: contents, rankingCacheCapacity: capacity)
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
