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
            return try await IndexReloader.withTimeout(readTimeout) { () async throws -> T in try await body() }
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

    /// The catalog's id and generation, read through the wrapped store (fails at once while
    /// the database is known to be unreachable).
    public func catalogVersion() async throws(CatalogStoreError) -> CatalogVersion {
        do throws(CatalogStoreError) {
            if knownUnreachable { throw CatalogStoreError.database("reading the catalog version", reason: "the catalog database is unreachable") }
            let store = self.store
            let version = try await bounded("reading the catalog version") { () async throws(CatalogStoreError) in try await store.catalogVersion() }
            memory.withLock { $0.version = version }
            return version
        } catch {
            if Self.isUnreachable(error), let version = memory.withLock({ $0.version }) { return version }
            throw error
        }
    }

    /// The live landmarks among `ids`, in the order asked; unknown ids are skipped.
    /// Read through the wrapped store; entities it has read are kept and answered from memory when the database does not answer.
    public func landmarks(ids: [String]) async throws(CatalogStoreError) -> [LandmarkEntity] {
        do throws(CatalogStoreError) {
            if knownUnreachable { throw CatalogStoreError.database("reading landmarks", reason: "the catalog database is unreachable") }
            let store = self.store
            let found = try await bounded("reading landmarks") { () async throws(CatalogStoreError) in try await store.landmarks(ids: ids) }
            let capacity = self.capacity
            memory.withLock { memory in
                // Asked for but not answered: removed since (forget it too).
                let answered = Set(found.map(\.id))
                for id in ids where !answered.contains(id) { memory.landmarks[id] = nil }
                for landmark in found { memory.remember(landmark, capacity: capacity) }
            }
            return found
        } catch {
            guard Self.isUnreachable(error) else { throw error }
            let known = memory.withLock { memory in ids.map { memory.landmarks[$0] } }
            // Unknown ids (never read) cannot be told apart from removed ones: fail.
            guard known.allSatisfy({ $0 != nil }) else { throw error }
            var seen = Set<String>()
            return known.compactMap { $0 }.filter { seen.insert($0.id).inserted }
        }
    }

    /// The live collections among `ids`, in the order asked; unknown ids are skipped.
    /// Read through the wrapped store; entities it has read are kept and answered from memory when the database does not answer.
    public func collections(ids: [String]) async throws(CatalogStoreError) -> [CollectionEntity] {
        do throws(CatalogStoreError) {
            if knownUnreachable { throw CatalogStoreError.database("reading collections", reason: "the catalog database is unreachable") }
            let store = self.store
            let found = try await bounded("reading collections") { () async throws(CatalogStoreError) in try await store.collections(ids: ids) }
            let capacity = self.capacity
            memory.withLock { memory in
                let answered = Set(found.map(\.id))
                for id in ids where !answered.contains(id) { memory.collections[id] = nil }
                for collection in found { memory.remember(collection, capacity: capacity) }
            }
            return found
        } catch {
            guard Self.isUnreachable(error) else { throw error }
            let known = memory.withLock { memory in ids.map { memory.collections[$0] } }
            guard known.allSatisfy({ $0 != nil }) else { throw error }
            var seen = Set<String>()
            return known.compactMap { $0 }.filter { seen.insert($0.id).inserted }
        }
    }

    /// The live collections that contain `landmarkID`, by id.
    /// Read through the wrapped store; entities it has read are kept and answered from memory when the database does not answer.
    public func collections(containing landmarkID: String) async throws(CatalogStoreError) -> [CollectionEntity] {
        do throws(CatalogStoreError) {
            if knownUnreachable { throw CatalogStoreError.database("reading collections", reason: "the catalog database is unreachable") }
            let store = self.store
            let found = try await bounded("reading collections") { () async throws(CatalogStoreError) in try await store.collections(containing: landmarkID) }
            let capacity = self.capacity
            memory.withLock { memory in
                for collection in found { memory.remember(collection, capacity: capacity) }
                if memory.landmarks[landmarkID] != nil { memory.containing[landmarkID] = found.map(\.id) }
            }
            return found
        } catch {
            guard Self.isUnreachable(error) else { throw error }
            let known: [CollectionEntity?]? = memory.withLock { memory in
                memory.containing[landmarkID].map { $0.map { memory.collections[$0] } }
            }
            guard let known, known.allSatisfy({ $0 != nil }) else { throw error }
            return known.compactMap { $0 }
        }
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
    public func indexingState() async throws(CatalogStoreError) -> IndexingState { try await store.indexingState() }

    /// Saves fingerprints computed so far outside the run's transaction, so a killed run reuses them. Passed through to the wrapped store.
    public func saveFileStates(_ states: [FileState], fingerprints: [ContentHash: Fingerprint]) async throws(CatalogStoreError) {
        try await store.saveFileStates(states, fingerprints: fingerprints)
    }

    /// Writes one index run in a single transaction: all of it or none. Passed through to the wrapped store.
    public func commit(
        _ content: CatalogContent, hashes: [String: ContentHash], sourceDescription: String, report: IndexReport,
        progress: (IndexProgress) throws -> Void
    ) async throws -> IndexReport {
        try await store.commit(content, hashes: hashes, sourceDescription: sourceDescription, report: report, progress: progress)
    }
}
