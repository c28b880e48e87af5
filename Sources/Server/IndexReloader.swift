import Catalog
import Logging
import Metrics
import Search
import ServiceLifecycle

/// The service that loads the index at start-up and brings it up to date whenever the
/// `CatalogChangeWatcher` reports a change (PostgreSQL: at once through LISTEN/NOTIFY;
/// every store: a version poll as the fallback), then swaps it into the ``IndexHolder``.
///
/// A change is applied incrementally: only what changed since the served generation is
/// read (``PreparedSearchIndex/updated(from:)``: a delta index of the changed landmarks
/// beside the unchanged base), milliseconds whatever the catalog size. The index is built
/// in full at start-up, when the change log does not reach back (another catalog), and
/// when the delta has grown past a sixteenth of the base (compaction). Updates run one at
/// a time, off the request path; requests keep using the previous index until the swap,
/// so no request fails because of a reload. A failed update keeps the old index and is
/// retried at the next change (or after a second).
///
/// After a full build from the catalog (no usable snapshot at start-up, or a compaction),
/// a replica given a snapshot path saves that index there in the background
/// (``PreparedSearchIndex/saveSnapshot(to:)``), so that its next start maps it instead of
/// reading every fingerprint; a failed save (a read-only folder, a full disk) is logged and
/// counted, and the replica goes on serving. A replica of one partition maps and saves
/// that partition's snapshot (its header names the partition, so no other replica maps or
/// replaces it: give each partition a path of its own).
///
/// It also checks the database every ``healthInterval``: when a check fails the replica
/// keeps answering from memory and ``CatalogHealth`` says why (`/readyz` 503); the first
/// check that succeeds again catches up with what changed meanwhile.
public struct IndexReloader: Service {
    /// The catalog as opened (what the reloader reads and checks).
    let store: any EntityStore
    /// The store the served indexes read entities through (``LastKnownEntityStore``).
    let entityStore: any EntityStore
    let holder: IndexHolder
    let health: CatalogHealth
    let watcher: CatalogChangeWatcher
    let rankingCacheCapacity: Int
    /// The other partitions' replicas, for a replica holding one partition; else `nil`.
    let fanOut: PartitionFanOut?
    /// The snapshot a full load maps when it is current or a small change log behind, and
    /// where a full build from the catalog is saved; `nil`: none (a PostgreSQL replica
    /// without `--snapshot`).
    let snapshotPath: String?
    /// Whether a build from the catalog gets a first stage (``ServerConfiguration/firstStage``).
    let firstStage: FirstStagePolicy
    let metrics: ServerMetrics
    let logger: Logger
    let reloadRequests: AsyncStream<Void>.Continuation
    /// The timer of the version check's ``checkTimeout``.
    private let watchdog = DeadlineWatchdog()
    private let requests: AsyncStream<Void>
    /// Full builds to save as the snapshot (the newest pending one).
    private let saves: AsyncStream<PreparedSearchIndex>
    private let saveRequests: AsyncStream<PreparedSearchIndex>.Continuation

    /// Time between two checks that the database answers (and a version poll).
    static let healthInterval: Duration = .seconds(1)
    /// Longest wait for the version check before the database counts as unreachable.
    static let checkTimeout: Duration = .seconds(3)

    /// Creates the reloader.
    init(store: any EntityStore, entityStore: any EntityStore, holder: IndexHolder, health: CatalogHealth, watcher: CatalogChangeWatcher,
         rankingCacheCapacity: Int, snapshotPath: String? = nil, firstStage: FirstStagePolicy = .automatic, fanOut: PartitionFanOut? = nil,
         metrics: ServerMetrics, logger: Logger) {
        self.snapshotPath = snapshotPath
        self.firstStage = firstStage
        self.fanOut = fanOut
        self.store = store
        self.entityStore = entityStore
        self.holder = holder
        self.health = health
        self.watcher = watcher
        self.rankingCacheCapacity = rankingCacheCapacity
        self.metrics = metrics
        self.logger = logger
        (requests, reloadRequests) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (saves, saveRequests) = AsyncStream.makeStream(of: PreparedSearchIndex.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks for a version check soon (after an admin change made by this server). O(1).
    func requestCheck() {
        reloadRequests.yield()
    }

    /// Loads the index, then keeps it up to date until graceful shutdown (a service of the application).
    public func run() async throws {
        let continuation = reloadRequests, saveRequests = self.saveRequests
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
                    // Every second: a check that the database answers (a failed first load
                    // is retried by it too; a version that moved is caught up).
                    while !Task.isCancelled {
                        try await Task.sleep(for: Self.healthInterval)
                        continuation.yield()
                    }
                }
                if let savePath = snapshotPath {
                    group.addTask {
                        // One save at a time, off the reload loop: writing gigabytes must
                        // not delay the next change. Cancelled at shutdown after the save
                        // in progress (a pending one is dropped).
                        for await prepared in saves where !Task.isCancelled {
                            await save(prepared, to: savePath)
                        }
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
            saveRequests.finish()
        }
    }

    /// Saves `prepared` as the snapshot at `path` on a thread of its own, logging and
    /// counting the outcome.
    private func save(_ prepared: PreparedSearchIndex, to path: String) async {
        let started = ContinuousClock.now, partition = store.partition
        do {
            let outcome = try await DedicatedThread.run { () throws(VisualIndexSnapshotError) -> PreparedSearchIndex.SnapshotSave in
                try prepared.saveSnapshot(to: path, partition: partition)
            }
            if case .refused = outcome {
                metrics.snapshotSaved(outcome: "refused")
                logger.warning("snapshot not saved; the next start builds from the catalog", metadata: ["path": "\(path)", "reason": "\(outcome)"])
            }
            guard case .written = outcome else { return }
            metrics.snapshotSaved(outcome: "written")
            logger.info("snapshot saved", metadata: [
                "catalog": "\(prepared.version)", "path": "\(path)", "outcome": "\(outcome)",
                "duration_ms": "\(QueryResultRecord.milliseconds(ContinuousClock.now - started))",
            ])
        } catch {
            metrics.snapshotSaved(outcome: "failed")
            logger.warning("snapshot not saved; the next start builds from the catalog", metadata: ["reason": "\(error)"])
        }
    }

    /// Brings the served index to the catalog's current version when it differs:
    /// incrementally when it can, else a full build. Records whether the database answered.
    func reloadIfChanged() async {
        let current = holder.index
        let served = current?.prepared.version
        let version: CatalogVersion
        do {
            version = try await watchdog.withTimeout(Self.checkTimeout) { () async throws -> CatalogVersion in try await store.catalogVersion() }
        } catch {
            let reason = "\(error)"
            if health.unreachable(reason) {
                metrics.reloadFailed()
                logger.error("catalog database unreachable; answering from the index in memory", metadata: [
                    "reason": "\(reason)", "serving": "\(served.map { "\($0)" } ?? "nothing")"])
            }
            return
        }
        if health.reachable() { logger.notice("catalog database reachable again", metadata: ["catalog": "\(version)"]) }
        guard version != served else { return }
        let started = ContinuousClock.now
        if let current, !current.prepared.needsCompaction {
            do {
                if let prepared = try await current.prepared.updated(from: store) {
                    let index = ServedIndex.make(store: entityStore, prepared: prepared, rankingCacheCapacity: rankingCacheCapacity, fanOut: fanOut)
                    holder.install(index)
                    let elapsed = ContinuousClock.now - started
                    metrics.indexInstalled(index, isReload: true, seconds: elapsed)
                    logger.info("index updated", metadata: [
                        "catalog": "\(prepared.version)", "from": "\(current.prepared.version.generation)",
                        "changed_landmarks": "\(prepared.changedLandmarkCount)", "views": "\(prepared.viewCount)",
                        "duration_ms": "\(QueryResultRecord.milliseconds(elapsed))",
                    ])
                    return
                }
                logger.notice("changes cannot be applied incrementally; building the index in full", metadata: ["catalog": "\(version)"])
            } catch {
                metrics.reloadFailed()
                logger.error("index update failed; keeping the previous index", metadata: ["reason": "\(error)"])
                return
            }
        }
        do {
            let index: ServedIndex
            let store = entityStore, capacity = rankingCacheCapacity, fanOut = self.fanOut, policy = firstStage
            if let snapshotPath, let prepared = try await PreparedSearchIndex.mapped(from: self.store, snapshotPath: snapshotPath) {
                // The snapshot (and its first stage) of this very version: mapped, not built.
                index = ServedIndex.make(store: store, prepared: prepared, rankingCacheCapacity: capacity, fanOut: fanOut)
            } else {
                // The reads are awaited (the store's own I/O); the build is CPU only. A
                // first stage by the policy (by default by size, as `glimpse index` decides;
                // a compaction keeps the first stage of the index it replaces).
                let contents = try await PreparedSearchIndex.read(from: self.store)
                let hadFirstStage = current?.prepared.hasFirstStage == true
                // On a thread of its own, not the request executors: building is seconds of
                // CPU for big catalogs, and busy request threads must not delay it either.
                index = try await DedicatedThread.run { () -> ServedIndex in
                    ServedIndex.build(store: store, contents: contents, rankingCacheCapacity: capacity, firstStage: policy,
                                      hadFirstStage: hadFirstStage, fanOut: fanOut)
                }
            }
            holder.install(index)
            if snapshotPath != nil && !index.prepared.isMapped { saveRequests.yield(index.prepared) }
            let elapsed = ContinuousClock.now - started
            metrics.indexInstalled(index, isReload: served != nil, seconds: elapsed)
            logger.info("index loaded", metadata: [
                "catalog": "\(index.prepared.version)", "views": "\(index.prepared.viewCount)",
                "landmarks": "\(index.prepared.landmarkCount)", "duration_ms": "\(QueryResultRecord.milliseconds(elapsed))",
                "source": "\(index.prepared.isMapped ? "snapshot" : "catalog")", "first_stage": "\(index.prepared.hasFirstStage)",
            ])
        } catch {
            metrics.reloadFailed()
            logger.error("index build failed; keeping the previous index", metadata: ["reason": "\(error)"])
        }
    }
}
