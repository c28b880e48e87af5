/// Every live landmark's fingerprints at one catalog version, handed out one landmark at a
/// time, as often as a reader needs to go through them: what a writer of a large index reads
/// instead of a ``FingerprintSnapshot`` (which decodes every fingerprint into memory at once).
///
/// Valid only inside the closure given to ``EntityStore/withFingerprintStream(_:)``: each
/// ``forEach(_:)`` reads the catalog again within the same consistent read, so every pass
/// sees the same entries in the same order.
public struct FingerprintStream {
    /// The catalog state the fingerprints belong to.
    public let version: CatalogVersion
    private let visitAll: ((FingerprintSnapshot.Entry) throws -> Void) throws -> Void

    /// A stream of `version` whose passes are made by `visitAll`.
    public init(version: CatalogVersion, visitAll: @escaping ((FingerprintSnapshot.Entry) throws -> Void) throws -> Void) {
        self.version = version
        self.visitAll = visitAll
    }

    /// One pass: calls `visit` with each live landmark that has at least one fingerprint,
    /// in increasing landmark-id order (the store's byte order of ids), one entry per
    /// landmark with its fingerprints in catalog order.
    ///
    /// - Complexity: O(images) reads and decodes; holds one landmark's fingerprints at a time.
    /// - Throws: the store's ``CatalogStoreError``, or what `visit` throws.
    public func forEach(_ visit: (FingerprintSnapshot.Entry) throws -> Void) throws {
        try withoutActuallyEscaping(visit) { try visitAll($0) }
    }
}
