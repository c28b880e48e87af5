/// Identifies one state of one catalog: which catalog (a random id made when the store
/// was created) and which generation (incremented by every change that alters what a
/// query can return: an indexing run that changed something, a removal, an undo).
///
/// Page tokens embed it, so a token from another catalog or an older generation is
/// recognised as stale.
public struct CatalogVersion: Sendable, Hashable, CustomStringConvertible {
    /// Random identifier of the catalog (UUID string), fixed for its life.
    public var catalogID: String
    /// Increases by one with every visible change.
    public var generation: Int64
    /// A random per-catalog key for signing page tokens (SipHash-2-4). Not a secret
    /// against someone who can read the database; it detects tampering and mix-ups.
    public var tokenKey: SIMD2<UInt64>

    /// Creates a version value.
    public init(catalogID: String, generation: Int64, tokenKey: SIMD2<UInt64>) {
        self.catalogID = catalogID
        self.generation = generation
        self.tokenKey = tokenKey
    }

    public var description: String { "\(catalogID)@\(generation)" }
}
