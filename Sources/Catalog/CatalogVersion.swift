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

    /// One line for people, naming what and why.
    public var description: String { "\(catalogID)@\(generation)" }
}

extension CatalogVersion {
    /// A new catalog's identity: a random RFC 4122 version-4 UUID string and a random
    /// 128-bit token key, as every store writes once when it creates a catalog.
    public static func newIdentity(using generator: inout some RandomNumberGenerator) -> (catalogID: String, tokenKey: SIMD2<UInt64>) {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { b in String(b >> 4, radix: 16) + String(b & 0x0F, radix: 16) }
        let id = hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
        return (id, SIMD2(generator.next(), generator.next()))
    }

    /// The token key as stored in a catalog's metadata: `"<word0>:<word1>"` in decimal.
    public var storedTokenKey: String { "\(tokenKey[0]):\(tokenKey[1])" }

    /// Parses ``storedTokenKey``; zero when malformed.
    public static func tokenKey(stored: String) -> SIMD2<UInt64> {
        let parts = stored.split(separator: ":").compactMap { UInt64($0) }
        return parts.count == 2 ? SIMD2(parts[0], parts[1]) : .zero
    }
}
