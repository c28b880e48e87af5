import Fingerprints

/// Every live landmark's fingerprints at one catalog version, read in one transaction:
/// what a visual index is built from.
public struct FingerprintSnapshot: Sendable {
    /// The fingerprints of one landmark's reference images.
    public struct Entry: Sendable, Hashable {
        /// The landmark.
        public var landmarkID: String
        /// One fingerprint per indexed reference image, in catalog order.
        public var fingerprints: [Fingerprint]

        /// Creates an entry.
        public init(landmarkID: String, fingerprints: [Fingerprint]) {
            self.landmarkID = landmarkID
            self.fingerprints = fingerprints
        }
    }

    /// The catalog state these fingerprints belong to.
    public var version: CatalogVersion
    /// Live landmarks with at least one fingerprint, sorted by id.
    public var entries: [Entry]

    /// Creates a snapshot.
    public init(version: CatalogVersion, entries: [Entry]) {
        self.version = version
        self.entries = entries
    }
}
