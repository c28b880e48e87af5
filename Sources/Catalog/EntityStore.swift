import Fingerprints

/// Where a catalog lives: the one protocol every store implements (the embedded SQLite
/// file of `SQLiteStore`, the shared PostgreSQL database of `PostgresStore`) and the only
/// thing the indexer, the search, the CLI and the server see.
///
/// It covers lookups and the values derived from them, the fingerprints a visual index is
/// built from (all at once, or only what changed since a generation), soft removal with
/// archive and undo, and the indexer's side: its caches and the single transaction that
/// replaces the catalog's content.
///
/// Reads see only live entities (not removed). Every write is one transaction: a crash or
/// `kill -9` at any moment leaves either the old or the new state. Every committed change
/// that alters what a query can return increments ``CatalogVersion/generation`` and
/// records which entities it touched (``changes(since:)``). Implementations are
/// thread-safe; share one instance.
public protocol EntityStore: Sendable {
    /// Where the catalog is, for messages: a file path, or a `postgres://` URL without
    /// its password.
    var location: String { get }

    /// How image paths are stored and resolved (``CatalogPaths``): relative to an SQLite
    /// catalog's folder; absolute in a PostgreSQL catalog (shared by several machines,
    /// which then see the images at the same paths).
    var paths: CatalogPaths { get }

    /// The partition whose fingerprints this store reads (``fingerprintSnapshot()``,
    /// ``changes(since:)``), for a replica of one partition of a partitioned catalog; `nil`
    /// when it reads the whole catalog (the default). A visual-index snapshot names it, so
    /// one partition's snapshot is never mapped for another. O(1).
    var partition: CatalogPartition? { get }

    // MARK: Version

    /// The catalog's identity, generation and page-token key. O(1).
    func catalogVersion() async throws(CatalogStoreError) -> CatalogVersion

    // MARK: Entities

    /// The live landmarks among `ids`, in the order given, skipping unknown or removed
    /// ids and repeats (like App Intents' `EntityQuery.entities(for:)`).
    ///
    /// - Complexity: a constant number of queries whatever the count (batched), O(ids + images).
    func landmarks(ids: [String]) async throws(CatalogStoreError) -> [LandmarkEntity]
    /// The live collections among `ids`, in the order given, skipping unknown or removed
    /// ids and repeats.
    ///
    /// - Complexity: a constant number of queries (batched), O(ids + members).
    func collections(ids: [String]) async throws(CatalogStoreError) -> [CollectionEntity]

    /// Every live landmark, sorted by id.
    ///
    /// - Complexity: a constant number of queries, O(landmarks + images).
    func allLandmarks() async throws(CatalogStoreError) -> [LandmarkEntity]
    /// Every live collection, sorted by id.
    ///
    /// - Complexity: a constant number of queries, O(collections + members).
    func allCollections() async throws(CatalogStoreError) -> [CollectionEntity]

    /// The live collections holding the landmark, sorted by id: a value computed from
    /// membership, never stored on the landmark.
    ///
    /// - Complexity: O(log n + collections holding it).
    func collections(containing landmarkID: String) async throws(CatalogStoreError) -> [CollectionEntity]

    /// The live collections holding each of `landmarkIDs`, by landmark id, each list sorted by
    /// collection id (``collections(containing:)`` for many landmarks at once): every id asked
    /// is a key, mapped to `[]` when no live collection holds it (or it is unknown or removed).
    ///
    /// - Complexity: a constant number of queries (batched), O(ids + memberships).
    func collections(containingEach landmarkIDs: [String]) async throws(CatalogStoreError) -> [String: [CollectionEntity]]

    // MARK: Fingerprints

    /// Every live landmark's fingerprints, with the catalog version they belong to, read
    /// consistently (one transaction), in bulk.
    ///
    /// - Complexity: O(images) including decoding the stored fingerprints; one streamed query.
    func fingerprintSnapshot() async throws(CatalogStoreError) -> FingerprintSnapshot

    /// Runs `body` with every live landmark's fingerprints as a ``FingerprintStream``: one
    /// consistent read that `body` may go through several times, holding one landmark's
    /// fingerprints at a time (SQLite); the default reads a ``fingerprintSnapshot()`` and
    /// streams it from memory.
    ///
    /// - Complexity: O(images) per pass, memory bounded by one landmark where the store streams.
    /// - Throws: the store's ``CatalogStoreError``, or what `body` throws.
    func withFingerprintStream<T>(_ body: (FingerprintStream) throws -> T) async throws -> T

    /// What changed since `generation` of this catalog, with the fingerprints of the
    /// landmarks that are live now among those changed, read consistently: what a
    /// replica needs to bring an index built at `generation` up to date without reading
    /// the whole catalog. ``CatalogChanges/isComplete`` is `false` when the log does not
    /// reach back that far (then reload with ``fingerprintSnapshot()``).
    ///
    /// - Complexity: O(changes + their images).
    func changes(since generation: Int64) async throws(CatalogStoreError) -> CatalogChanges

    /// The generations announced by committed changes, as they happen, for a store that
    /// pushes them (PostgreSQL: `LISTEN glimpse_catalog`); `nil` for one that cannot (SQLite:
    /// poll ``catalogVersion()``). The stream first yields -1 once it listens (check for
    /// changes missed before), and ends with an error when the connection is lost (listen
    /// again; poll meanwhile).
    func changeNotifications() -> AsyncThrowingStream<Int64, any Error>?

    // MARK: Removal

    /// Soft-removes one live landmark or collection for `reason`: it disappears from reads
    /// and queries but stays stored, and ``undoLastRemoval()`` restores it. Removing a
    /// landmark keeps collection memberships (they reappear on undo). Indexing never
    /// revives a user's removal or archive. One transaction.
    ///
    /// - Throws: ``CatalogStoreError/unknownEntity(_:)`` when it is unknown or already
    ///   removed; ``CatalogStoreError/readOnly(_:)`` on a catalog opened read-only.
    @discardableResult
    func remove(_ reference: EntityReference, reason: Removal.Reason) async throws(CatalogStoreError) -> Removal

    /// Restores every entity of the most recent removal not yet undone, and returns it;
    /// `nil` when there is nothing to undo. One transaction.
    @discardableResult
    func undoLastRemoval() async throws(CatalogStoreError) -> Removal?

    /// Every removal, newest first, with its entities. O(removals).
    func removals() async throws(CatalogStoreError) -> [Removal]

    // MARK: Exact copies and searchability

    /// The live landmarks holding an exact copy of the query that `key` describes: an
    /// image with the same content hash, or when there is none, whose fingerprint has the
    /// same ``FrameDigest`` (a digest can group several images that look equally flat to
    /// the fingerprint, for example uniform images of one colour; the file's own bytes are
    /// the more exact answer). Sorted by id, each once.
    ///
    /// - Complexity: two indexed lookups (a catalog opened read-only from an older schema
    ///   without the digest column: the content hash only).
    func landmarkIDs(copying key: CopyKey) async throws(CatalogStoreError) -> [String]

    /// How many live images and landmarks have a ``Fingerprint/wholeImageQuality`` under
    /// `minimumViewQuality` (``UnsearchableCounts``); `nil` for a catalog opened read-only
    /// from a schema older than the per-fingerprint quality it is counted from.
    ///
    /// - Complexity: O(images), one query.
    func unsearchableCounts(minimumViewQuality: Int) async throws(CatalogStoreError) -> UnsearchableCounts?

    // MARK: Indexing (used by ``CatalogIndexer``)

    /// What the indexer needs to know before a run (file states, catalog hashes, cached
    /// fingerprints), read consistently: of every file (`paths` nil, a replace run), or of
    /// `paths` alone and the fingerprints their states and catalog images name (an add run,
    /// which then fingerprints again a new file whose content another path already has).
    /// O(files), or O(paths).
    func indexingState(paths: [String]?) async throws(CatalogStoreError) -> IndexingState

    /// Records file states and newly computed fingerprints in one small transaction.
    /// Catalog reads do not see them until ``commit(_:hashes:sourceDescription:report:mode:progress:)``
    /// points landmark images at them, so an interrupted run loses at most one batch.
    ///
    /// - Complexity: O(states + fingerprints), batched statements.
    func saveFileStates(_ states: [FileState], fingerprints: [ContentHash: Fingerprint]) async throws(CatalogStoreError)

    /// Writes `content` in ONE transaction: upserts landmarks and collections (keeping user
    /// removals), restores ones a previous run removed as missing, drops cache rows nothing
    /// refers to any more, records what changed and bumps the generation if anything visible
    /// changed. With ``IndexMode/replace`` the content is the whole catalog: entities gone
    /// from it are soft-deleted as one ``Removal`` (reason ``Removal/Reason/missingFromSource``).
    /// With ``IndexMode/add`` other entities are kept, a collection keeps its members and
    /// gains the content's (``CatalogRules/addedMembers(existing:source:)``), new entities
    /// go after the existing ones, and only the content's entities are read. `progress` may
    /// throw to abort: the transaction rolls back and nothing changes.
    ///
    /// - Returns: `report` completed with the removed and restored entities and the new version.
    /// - Throws: ``CatalogStoreError``, or the error `progress` threw.
    /// - Complexity: replace: O(catalog entities); add: O(content entities + their images).
    func commit(
        _ content: CatalogContent, hashes: [String: ContentHash], sourceDescription: String, report: IndexReport,
        mode: IndexMode, progress: (IndexProgress) throws -> Void
    ) async throws -> IndexReport
}

extension EntityStore {
    /// The whole catalog: stores that cannot be partitioned read every fingerprint. O(1).
    public var partition: CatalogPartition? { nil }

    /// No push notifications: readers poll ``catalogVersion()``.
    public func changeNotifications() -> AsyncThrowingStream<Int64, any Error>? { nil }

    /// The whole ``fingerprintSnapshot()`` in memory, streamed from there. O(images).
    public func withFingerprintStream<T>(_ body: (FingerprintStream) throws -> T) async throws -> T {
        let snapshot = try await fingerprintSnapshot()
        return try body(FingerprintStream(version: snapshot.version) { visit in
            for entry in snapshot.entries { try visit(entry) }
        })
    }

    /// The live landmark with this id, or `nil`. O(log n + images).
    public func landmark(id: String) async throws(CatalogStoreError) -> LandmarkEntity? {
        try await landmarks(ids: [id]).first
    }

    /// The live collection with this id, or `nil`. O(log n + members).
    public func collection(id: String) async throws(CatalogStoreError) -> CollectionEntity? {
        try await collections(ids: [id]).first
    }

    /// Soft-deletes one live landmark or collection (reason ``Removal/Reason/removedByUser``);
    /// see ``remove(_:reason:)``.
    @discardableResult
    public func remove(_ reference: EntityReference) async throws(CatalogStoreError) -> Removal {
        try await remove(reference, reason: .removedByUser)
    }
}
