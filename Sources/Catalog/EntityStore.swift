/// Where a catalog's entities live: lookups, the derived values computed from them,
/// fingerprints for the visual index, and soft removal with undo.
///
/// Reads see only live entities (not removed). Implementations are thread-safe.
/// ``SQLiteEntityStore`` is the default implementation.
public protocol EntityStore: Sendable {
    /// The catalog's identity and generation. O(1).
    func catalogVersion() throws(CatalogStoreError) -> CatalogVersion

    /// The live landmark with this id, or `nil`. O(log n).
    func landmark(id: String) throws(CatalogStoreError) -> LandmarkEntity?
    /// The live collection with this id, or `nil`. O(log n + members).
    func collection(id: String) throws(CatalogStoreError) -> CollectionEntity?

    /// The live landmarks among `ids`, in the order given, skipping unknown or removed
    /// ids and repeats (like App Intents' `EntityQuery.entities(for:)`).
    func landmarks(ids: [String]) throws(CatalogStoreError) -> [LandmarkEntity]
    /// The live collections among `ids`, in the order given, skipping unknown or removed
    /// ids and repeats.
    func collections(ids: [String]) throws(CatalogStoreError) -> [CollectionEntity]

    /// Every live landmark, sorted by id. O(n).
    func allLandmarks() throws(CatalogStoreError) -> [LandmarkEntity]
    /// Every live collection, sorted by id. O(n).
    func allCollections() throws(CatalogStoreError) -> [CollectionEntity]

    /// The live collections holding the landmark, sorted by id: a value computed from
    /// membership, never stored on the landmark.
    func collections(containing landmarkID: String) throws(CatalogStoreError) -> [CollectionEntity]

    /// Every live landmark's fingerprints, with the catalog version they belong to, read
    /// consistently. O(images) including decoding the stored fingerprints.
    func fingerprintSnapshot() throws(CatalogStoreError) -> FingerprintSnapshot

    /// Soft-deletes one live landmark or collection: it disappears from reads and
    /// queries but stays stored, and ``undoLastRemoval()`` restores it. Removing a
    /// landmark keeps collection memberships (they reappear on undo).
    ///
    /// - Throws: ``CatalogStoreError/unknownEntity(_:)`` when it is unknown or already removed.
    @discardableResult
    func remove(_ reference: EntityReference) throws(CatalogStoreError) -> Removal

    /// Like ``remove(_:)`` but recorded with `reason` (``Removal/Reason/archivedByUser``
    /// archives, ``Removal/Reason/removedByUser`` deletes); both are soft and undoable.
    ///
    /// - Throws: ``CatalogStoreError/unknownEntity(_:)`` when it is unknown or already removed.
    @discardableResult
    func remove(_ reference: EntityReference, reason: Removal.Reason) throws(CatalogStoreError) -> Removal

    /// Restores every entity of the most recent removal not yet undone, and returns it;
    /// `nil` when there is nothing to undo.
    @discardableResult
    func undoLastRemoval() throws(CatalogStoreError) -> Removal?

    /// Every removal, newest first, with its entities.
    func removals() throws(CatalogStoreError) -> [Removal]
}
