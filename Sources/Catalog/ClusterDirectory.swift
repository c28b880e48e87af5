/// One `glimpse serve` replica of a partitioned catalog, as it registers itself: where it
/// answers, which partition it holds and the catalog generation its index is at.
public struct ClusterMember: Sendable, Hashable {
    /// Its base URL (`http://host:port`), where the other replicas reach its internal endpoint.
    public var address: String
    /// The partition it holds.
    public var partition: CatalogPartition
    /// The catalog generation of the index it serves.
    public var generation: Int64

    /// Creates a member. O(1).
    public init(address: String, partition: CatalogPartition, generation: Int64) {
        self.address = address
        self.partition = partition
        self.generation = generation
    }
}

/// The replicas of a partitioned catalog, kept in the catalog's own database (no file
/// listing peers): each replica registers itself and renews its entry with a heartbeat,
/// and every replica reads who is alive to fan a search out to one replica of every
/// partition. Implemented by the PostgreSQL store (SQLite catalogs are never partitioned).
///
/// A heartbeat is the one row a replica writes even when it opened the catalog read-only.
public protocol ClusterDirectory: Sendable {
    /// Registers `member` or renews its entry (keyed by address), stamped with the database's clock.
    /// - Complexity: one upsert.
    func heartbeat(_ member: ClusterMember) async throws(CatalogStoreError)
    /// The members whose last heartbeat is at most `maximumAge` old by the database's clock,
    /// sorted by partition then address.
    /// - Complexity: one read, O(members).
    func members(heardWithin maximumAge: Duration) async throws(CatalogStoreError) -> [ClusterMember]
    /// Removes the entry of the member at `address` (a replica stopping cleanly).
    /// - Complexity: one delete.
    func leave(address: String) async throws(CatalogStoreError)
}
