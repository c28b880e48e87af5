import Catalog

/// An opaque continuation token for the next page of a query.
///
/// Its text is base64url (no padding) of 45 bytes: a version byte (1), the offset of the
/// next page (UInt32), the page size used (UInt32), the query digest (UInt64: a hash of
/// the query's fingerprint and labels), a hash of the catalog id (UInt64), the catalog
/// generation (Int64), and a SipHash-2-4 MAC (UInt64) of all that under the catalog's
/// random token key. A token is therefore bound to one query on one catalog state, and
/// altering any byte is detected.
public struct PageToken: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token text (base64url).
    public var text: String

    /// Wraps token text received from a client. Validation happens when it is used.
    public init(_ text: String) {
        self.text = text
    }

    /// The token text.
    public var description: String { text }

    /// The fields a token carries.
    struct Payload: Equatable {
        var offset: Int
        var pageSize: Int
        var queryDigest: UInt64
        var catalogIDHash: UInt64
        var generation: Int64
    }

    static let formatVersion: UInt8 = 1
    static let byteCount = 1 + 4 + 4 + 8 + 8 + 8 + 8

    /// Signs and encodes a payload for `version`.
    init(offset: Int, pageSize: Int, queryDigest: UInt64, version: CatalogVersion) {
        var bytes: [UInt8] = [Self.formatVersion]
        Self.append(UInt64(UInt32(clamping: offset)), 4, &bytes)
        Self.append(UInt64(UInt32(clamping: pageSize)), 4, &bytes)
        Self.append(queryDigest, 8, &bytes)
        Self.append(Self.catalogIDHash(version.catalogID), 8, &bytes)
        Self.append(UInt64(bitPattern: version.generation), 8, &bytes)
        Self.append(SipHash24(key: version.tokenKey).hash(bytes), 8, &bytes)
        text = Base64URL.encode(bytes)
    }

    /// Decodes and checks the token against the catalog state and query it is used with.
    ///
    /// - Throws: ``PageTokenError`` saying exactly what does not fit.
    func payload(for version: CatalogVersion, queryDigest: UInt64) throws(PageTokenError) -> Payload {
        guard let bytes = Base64URL.decode(text), bytes.count >= 1 else { throw .malformed }
        guard bytes[0] == Self.formatVersion else { throw .unsupportedVersion(bytes[0]) }
        guard bytes.count == Self.byteCount else { throw .malformed }
        func read(_ at: Int, _ n: Int) -> UInt64 {
            (0..<n).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        let payload = Payload(
            offset: Int(read(1, 4)), pageSize: Int(read(5, 4)), queryDigest: read(9, 8),
            catalogIDHash: read(17, 8), generation: Int64(bitPattern: read(25, 8)))
        let mac = read(33, 8)
        guard SipHash24(key: version.tokenKey).hash(bytes[0..<33]) == mac else {
            throw payload.catalogIDHash == Self.catalogIDHash(version.catalogID) ? .tampered : .differentCatalog
        }
        guard payload.generation == version.generation else {
            throw .catalogChanged(tokenGeneration: payload.generation, currentGeneration: version.generation)
        }
        guard payload.queryDigest == queryDigest else { throw .differentQuery }
        return payload
    }

    /// Whether the token, read without checking its MAC, says it was made by the catalog with
    /// id `catalogID`; `nil` when it is not a token of this format. Only for telling "another
    /// catalog" from "altered" once authentication has already failed. O(1).
    func namesCatalog(_ catalogID: String) -> Bool? {
        guard let bytes = Base64URL.decode(text), bytes.count == Self.byteCount, bytes[0] == Self.formatVersion else { return nil }
        let hash = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[17 + $1]) << (8 * UInt64($1)) }
        return hash == Self.catalogIDHash(catalogID)
    }

    private static func catalogIDHash(_ id: String) -> UInt64 {
        SipHash24(key: SIMD2(0x6361_7461_6c6f_6769, 0x6420_6861_7368_2121)).hash(Array(id.utf8))
    }

    private static func append(_ value: UInt64, _ count: Int, _ bytes: inout [UInt8]) {
        for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }
}

/// RFC 4648 §5 base64url without padding.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let chunk = Array(bytes[i..<min(i + 3, bytes.count)])
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for k in 0...chunk.count { out.append(alphabet[Int((value >> (18 - 6 * UInt32(k))) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for c in text.utf8 {
            guard let index = alphabet.firstIndex(of: c) else { return nil }
            values.append(UInt8(index))
        }
        guard values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < values.count {
            let group = values[i..<min(i + 4, values.count)]
            let value = group.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (18 - 6 * UInt32($1.offset)) }
            for k in 0..<(group.count - 1) { out.append(UInt8(truncatingIfNeeded: value >> (16 - 8 * UInt32(k)))) }
            i += 4
        }
        // Reject non-canonical encodings (unused low bits set), so one token has one text.
        guard encode(out) == text else { return nil }
        return out
    }
}
