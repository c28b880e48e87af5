import Catalog
import Fingerprints
import Synchronization

/// The catalog as a replica reads it: every call goes to the store, and the entities and
/// version it answered are remembered, so that while the database is unreachable (a
/// `.database` or `.cannotOpen` failure) lookups of entities read before are answered from
/// memory: a replica keeps answering the searches it answered before (the index is in
/// memory too) while `/readyz` reports it not ready. Writes and other reads are passed
/// through unchanged. What it remembers is as of its last successful read (entity details
/// may lag the catalog while the database is away; the index does not change meanwhile).
///
/// Bounded: at most ``capacity`` landmarks and as many collections (the oldest half is
/// dropped when full).
public final class LastKnownEntityStore: EntityStore {
    /// The store every call goes to first.
    public let store: any EntityStore
    /// Most landmarks (and most collections) remembered.
    public let capacity: Int
    private let memory = Mutex(Memory())

    private struct Memory {
        var version: CatalogVersion?
        var landmarks: [String: LandmarkEntity] = [:]
        var landmarkOrder: [String] = []
        var collections: [String: CollectionEntity] = [:]
        var collectionOrder: [String] = []
        var containing: [String: [String]] = [:]
        var copies: [CopyKey: [String]] = [:]

        mutating func remember(_ landmark: LandmarkEntity, capacity: Int) {
            if landmarks.updateValue(landmark, forKey: landmark.id) == nil { landmarkOrder.append(landmark.id) }
            if landmarkOrder.count > capacity {
                let dropped = landmarkOrder.prefix(landmarkOrder.count / 2)
                for id in dropped { landmarks[id] = nil; containing[id] = nil }
                landmarkOrder.removeFirst(dropped.count)
            }
        }

        mutating func remember(_ collection: CollectionEntity, capacity: Int) {
            if collections.updateValue(collection, forKey: collection.id) == nil { collectionOrder.append(collection.id) }
            if collectionOrder.count > capacity {
                let dropped = collectionOrder.prefix(collectionOrder.count / 2)
                for id in dropped { collections[id] = nil }
                collectionOrder.removeFirst(dropped.count)
            }
        }
    }

    /// The replica's view of the database: while it says unreachable, remembered entities
    /// are answered at once without asking the database.
    let health: CatalogHealth?
    /// Longest wait for one read before it counts as a failure (a pool waiting for a
    /// database that went away does not fail by itself).
    let readTimeout: Duration
    /// The timer of every read's ``readTimeout``.
    private let watchdog = DeadlineWatchdog()

    /// Wraps `store`.
    public init(_ store: any EntityStore, capacity: Int = 4096, health: CatalogHealth? = nil, readTimeout: Duration = .seconds(2)) {
        self.store = store
        self.capacity = max(16, capacity)
        self.health = health
        self.readTimeout = readTimeout
    }

    /// `body`, failing with ``CatalogStoreError/database(_:reason:)`` after ``readTimeout``.
    private func bounded<T: Sendable>(_ operation: String, _ body: @escaping @Sendable () async throws(CatalogStoreError) -> T) async throws(CatalogStoreError) -> T {
        do {
            return try await watchdog.withTimeout(readTimeout) { () async throws -> T in try await body() }
        } catch let error as CatalogStoreError {
            throw error
        } catch {
            throw .database(operation, reason: "\(error)")
        }
    }

    /// Whether the health check says the database is away.
    private var knownUnreachable: Bool { health?.unreachableReason != nil }

    /// Whether `error` says the database could not be reached (rather than a refusal).
    static func isUnreachable(_ error: CatalogStoreError) -> Bool {
        switch error {
        case .database, .cannotOpen: true
        default: false
        }
    }

    /// Where the catalog lives, as messages name it. Passed through to the wrapped store.
    public var location: String { store.location }
    /// How stored image paths are resolved. Passed through to the wrapped store.
    public var paths: CatalogPaths { store.paths }
    /// The wrapped store's partition.
    public var partition: CatalogPartition? { store.partition }

    /// One read through the wrapped store, remembered, with the remembered answer as the
    /// fallback: fails at once while the health check says the database is unreachable,
    /// else runs `read` (bounded by ``readTimeout``) and records its answer with `remember`;
    /// when the database cannot be reached (``isUnreachable(_:)``), answers what `recall`
    /// finds in memory, and fails with the store's error when `recall` has nothing.
    /// `operation` names the read in messages.
    /// - Complexity: one store read, plus what `remember` or `recall` do under the lock.
    private func readThrough<T: Sendable>(
        _ operation: String,
        _ read: @escaping @Sendable () async throws(CatalogStoreError) -> T,
        remember: (inout Memory, T) -> Void,
        recall: (Memory) -> T?
    ) async throws(CatalogStoreError) -> T {
        do throws(CatalogStoreError) {
            if knownUnreachable { throw CatalogStoreError.database(operation, reason: "the catalog database is unreachable") }
            let found = try await bounded(operation, read)
            memory.withLock { remember(&$0, found) }
            return found
        } catch {
            guard Self.isUnreachable(error), let known = memory.withLock({ recall($0) }) else { throw error }
            return known
        }
    }

    /// The remembered entities of `ids` (each once, in the order asked); `nil` when one was
    /// never read (unknown ids cannot be told apart from removed ones). O(ids).
    private static func recall<Entity: CatalogEntity>(_ ids: [String], in entities: [String: Entity]) -> [Entity]? {
        let known = ids.map { entities[$0] }
        guard known.allSatisfy({ $0 != nil }) else { return nil }
        var seen = Set<String>()
        return known.compactMap { $0 }.filter { seen.insert($0.id).inserted }
    }

    /// The catalog's id and generation, read through the wrapped store (fails at once while
    /// the database is known to be unreachable; answers the last version read while it
    /// cannot be reached).
    /// - Complexity: one store read.
    public func catalogVersion() async throws(CatalogStoreError) -> CatalogVersion {
        let store = self.store
        return try await readThrough(
            "reading the catalog version", { () async throws(CatalogStoreError) in try await store.catalogVersion() },
            remember: { memory, version in memory.version = version },
            recall: { $0.version })
    }

    /// The live landmarks among `ids`, in the order asked; unknown ids are skipped.
    /// Read through the wrapped store; entities it has read are kept and answered from memory when the database does not answer.
    /// - Complexity: one store read; O(ids) in memory.
    public func landmarks(ids: [String]) async throws(CatalogStoreError) -> [LandmarkEntity] {
        let store = self.store, capacity = self.capacity
        return try await readThrough(
            "reading landmarks", { () async throws(CatalogStoreError) in try await store.landmarks(ids: ids) },
            remember: { memory, found in
                // Asked for but not answered: removed since (forget it too).
                let answered = Set(found.map(\.id))
                for id in ids where !answered.contains(id) { memory.landmarks[id] = nil }
                for landmark in found { memory.remember(landmark, capacity: capacity) }
            },
            recall: { Self.recall(ids, in: $0.landmarks) })
    }

    /// The live collections among `ids`, in the order asked; unknown ids are skipped.
    /// Read through the wrapped store; entities it has read are kept and answered from memory when the database does not answer.
    /// - Complexity: one store read; O(ids) in memory.
    public func collections(ids: [String]) async throws(CatalogStoreError) -> [CollectionEntity] {
        let store = self.store, capacity = self.capacity
        return try await readThrough(
            "reading collections", { () async throws(CatalogStoreError) in try await store.collections(ids: ids) },
            remember: { memory, found in
                let answered = Set(found.map(\.id))
                for id in ids where !answered.contains(id) { memory.collections[id] = nil }
                for collection in found { memory.remember(collection, capacity: capacity) }
            },
            recall: { Self.recall(ids, in: $0.collections) })
    }

    /// The live collections that contain `landmarkID`, by id.
    /// Read through the wrapped store; entities it has read are kept and answered from memory when the database does not answer.
    /// - Complexity: one store read; O(collections found) in memory.
    public func collections(containing landmarkID: String) async throws(CatalogStoreError) -> [CollectionEntity] {
        let store = self.store, capacity = self.capacity
        return try await readThrough(
            "reading collections", { () async throws(CatalogStoreError) in try await store.collections(containing: landmarkID) },
            remember: { memory, found in
                for collection in found { memory.remember(collection, capacity: capacity) }
                if memory.landmarks[landmarkID] != nil { memory.containing[landmarkID] = found.map(\.id) }
            },
            recall: { memory in
                // Not a filter of ids asked for: every collection named must still be remembered.
                guard let known = memory.containing[landmarkID].map({ $0.map { memory.collections[$0] } }),
                      known.allSatisfy({ $0 != nil }) else { return nil }
                return known.compactMap { $0 }
            })
    }

    /// The live collections holding each of `landmarkIDs`, by landmark id, read through the
    /// wrapped store and remembered as ``collections(containing:)`` remembers them.
    /// - Complexity: one store read; O(ids + memberships) in memory.
    public func collections(containingEach landmarkIDs: [String]) async throws(CatalogStoreError) -> [String: [CollectionEntity]] {
        let store = self.store, capacity = self.capacity
        return try await readThrough(
            "reading collections", { () async throws(CatalogStoreError) in try await store.collections(containingEach: landmarkIDs) },
            remember: { memory, found in
                for (landmarkID, collections) in found {
                    for collection in collections { memory.remember(collection, capacity: capacity) }
                    if memory.landmarks[landmarkID] != nil { memory.containing[landmarkID] = collections.map(\.id) }
                }
            },
            recall: { memory in
                var answer: [String: [CollectionEntity]] = [:]
                for landmarkID in landmarkIDs {
                    guard let known = memory.containing[landmarkID].map({ $0.map { memory.collections[$0] } }),
                          known.allSatisfy({ $0 != nil }) else { return nil }
                    answer[landmarkID] = known.compactMap { $0 }
                }
                return answer
            })
    }

    /// The live landmarks holding an exact copy of `key`, read through the wrapped store
    /// and remembered; while the database cannot be reached, the remembered answer, or none
    /// (the search still answers from the index, without the exact-copy shortcut).
    /// - Complexity: one store read.
    public func landmarkIDs(copying key: CopyKey) async throws(CatalogStoreError) -> [String] {
        let store = self.store, capacity = self.capacity
        return try await readThrough(
            "looking up exact copies", { () async throws(CatalogStoreError) in try await store.landmarkIDs(copying: key) },
            remember: { memory, found in
                if memory.copies.count >= capacity { memory.copies.removeAll() }
                memory.copies[key] = found
            },
            recall: { $0.copies[key] ?? [] })
    }

    /// Live images and landmarks a search cannot find, read through the wrapped store
    /// (bounded by ``readTimeout``; fails at once while the database is known to be away;
    /// nothing remembered).
    public func unsearchableCounts(minimumViewQuality: Int) async throws(CatalogStoreError) -> UnsearchableCounts? {
        let store = self.store
        return try await readThrough(
            "counting unsearchable images", { () async throws(CatalogStoreError) in try await store.unsearchableCounts(minimumViewQuality: minimumViewQuality) },
            remember: { _, _ in }, recall: { _ in nil })
    }

    /// Every live landmark, by id. Passed through to the wrapped store.
    public func allLandmarks() async throws(CatalogStoreError) -> [LandmarkEntity] { try await store.allLandmarks() }
    /// Every live collection, by id. Passed through to the wrapped store.
    public func allCollections() async throws(CatalogStoreError) -> [CollectionEntity] { try await store.allCollections() }
    /// Every live landmark's fingerprints in one bulk read, to build the visual index from. Passed through to the wrapped store.
    public func fingerprintSnapshot() async throws(CatalogStoreError) -> FingerprintSnapshot { try await store.fingerprintSnapshot() }
    /// What changed after `generation` (landmarks, collections, fingerprints), from the change log. Passed through to the wrapped store.
    public func changes(since generation: Int64) async throws(CatalogStoreError) -> CatalogChanges { try await store.changes(since: generation) }
    /// Generations announced by committed changes, as they come; `nil` when the store cannot push. Passed through to the wrapped store.
    public func changeNotifications() -> AsyncThrowingStream<Int64, any Error>? { store.changeNotifications() }

    /// Removes or archives an entity (soft: ``undoLastRemoval()`` restores it), in one transaction. Passed through to the wrapped store.
    @discardableResult
    public func remove(_ reference: EntityReference, reason: Removal.Reason) async throws(CatalogStoreError) -> Removal {
        try await store.remove(reference, reason: reason)
    }

    /// Restores the most recent removal not yet undone; `nil` when there is none. Passed through to the wrapped store.
    @discardableResult
    public func undoLastRemoval() async throws(CatalogStoreError) -> Removal? { try await store.undoLastRemoval() }
    /// Every removal, newest first. Passed through to the wrapped store.
    public func removals() async throws(CatalogStoreError) -> [Removal] { try await store.removals() }
    /// The file states and saved fingerprints of earlier runs (unchanged files are skipped). Passed through to the wrapped store.
    public func indexingState(paths: [String]?) async throws(CatalogStoreError) -> IndexingState { try await store.indexingState(paths: paths) }

    /// Saves fingerprints computed so far outside the run's transaction, so a killed run reuses them. Passed through to the wrapped store.
    public func saveFileStates(_ states: [FileState], fingerprints: [ContentHash: Fingerprint]) async throws(CatalogStoreError) {
        try await store.saveFileStates(states, fingerprints: fingerprints)
    }

    /// Writes one index run in a single transaction: all of it or none. Passed through to the wrapped store.
    public func commit(
        _ content: CatalogContent, hashes: [String: ContentHash], sourceDescription: String, report: IndexReport,
        mode: IndexMode, progress: (IndexProgress) throws -> Void
    ) async throws -> IndexReport {
        try await store.commit(content, hashes: hashes, sourceDescription: sourceDescription, report: report, mode: mode, progress: progress)
    }
}
