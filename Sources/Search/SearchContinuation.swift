import Catalog
import Fingerprints

/// A self-contained "more results" token for stateless servers: everything needed to
/// continue a query on any replica, with no server-side state. It carries the query's
/// fingerprint (serialized), its labels, a scoring profile chosen by the caller, and the
/// inner ``PageToken`` (page position, query digest, catalog id and generation), all under
/// a SipHash-2-4 MAC keyed with the catalog's token key (``CatalogVersion/tokenKey``),
/// so every replica serving the same catalog accepts it and any altered byte is refused.
///
/// Layout before base64url: `0x47` (format), profile (UInt8), page size (UInt16), page-token length (UInt16)
/// and text, label count (UInt8) and each label's length (UInt8) and UTF-8, fingerprint
/// length (UInt16) and ``Fingerprint/serialized()`` bytes, for a whole-image query with a
/// ``CopyKey`` its length (UInt8, 24) and ``CopyKey/bytes``, MAC (UInt64). Integers are
/// little-endian. A query with a ``minimumScore`` has format `0x48` and that score's `Double`
/// bits (UInt64) after the profile; otherwise the bytes are exactly format `0x47`'s. A
/// four-view query fingerprint makes a token of about 800 characters.
public struct SearchContinuation: Sendable, Hashable {
    /// The query's fingerprint.
    public var fingerprint: Fingerprint
    /// The query's labels, as given.
    public var labels: [String]
    /// Which scoring the caller used (opaque to this type; for example visual or hash-only).
    public var profile: UInt8
    /// Results per page of the query being continued.
    public var pageSize: Int
    /// The inner token of the next page, checked by ``VisualSearchQuery`` against the query
    /// and the catalog's current generation.
    public var pageToken: PageToken
    /// The exact-copy key of a whole-image query (``VisualSearchQuery`` ranks its copies
    /// first again on the next page), or `nil`.
    public var copyKey: CopyKey?
    /// The minimum score the query asked for (``PageRequest/minimumScore``), or `nil`.
    public var minimumScore: Double?

    /// Longest token text accepted, in characters (checked before decoding anything).
    public static let maximumTextLength = 16_384
    static let format: UInt8 = 0x47
    static let formatWithMinimumScore: UInt8 = 0x48

    /// Creates a continuation.
    public init(fingerprint: Fingerprint, labels: [String], profile: UInt8, pageSize: Int, pageToken: PageToken, copyKey: CopyKey? = nil,
                minimumScore: Double? = nil) {
        self.fingerprint = fingerprint
        self.labels = labels
        self.profile = profile
        self.pageSize = pageSize
        self.pageToken = pageToken
        self.copyKey = copyKey
        self.minimumScore = minimumScore
    }

    /// The token text (base64url, no padding), signed with `key`.
    ///
    /// - Complexity: O(fingerprint size + labels).
    public func text(signedWith key: SIMD2<UInt64>) -> String {
        var bytes: [UInt8] = [minimumScore == nil ? Self.format : Self.formatWithMinimumScore, profile]
        if let minimumScore { Self.append(minimumScore.bitPattern, 8, &bytes) }
        Self.append(UInt64(UInt16(clamping: pageSize)), 2, &bytes)
        let inner = Array(pageToken.text.utf8.prefix(Int(UInt16.max)))
        Self.append(UInt64(inner.count), 2, &bytes)
        bytes += inner
        let kept = labels.prefix(255).map { Array($0.utf8.prefix(255)) }
        bytes.append(UInt8(kept.count))
        for label in kept {
            bytes.append(UInt8(label.count))
            bytes += label
        }
        let serialized = fingerprint.serialized()
        Self.append(UInt64(serialized.count), 2, &bytes)
        bytes += serialized
        if let copyKey {
            let key = copyKey.bytes
            bytes.append(UInt8(key.count))
            bytes += key
        }
        Self.append(SipHash24(key: key).hash(bytes), 8, &bytes)
        return Base64URL.encode(bytes)
    }

    /// Decodes and authenticates token `text` with `key`.
    ///
    /// - Complexity: O(text length).
    /// - Throws: ``PageTokenError/malformed`` when it is not such a token (bad base64url,
    ///   wrong lengths, too long), ``PageTokenError/unsupportedVersion(_:)``, or
    ///   ``PageTokenError/tampered`` when the MAC does not match (altered, or signed for
    ///   another catalog).
    public init(text: String, key: SIMD2<UInt64>) throws(PageTokenError) {
        try self.init(text: text, key: key, catalogID: nil)
    }

    /// Decodes and authenticates token `text` for the catalog state `version`: as
    /// ``init(text:key:)``, and a token signed by another catalog is
    /// ``PageTokenError/differentCatalog`` rather than ``PageTokenError/tampered``.
    ///
    /// - Complexity: O(text length).
    public init(text: String, version: CatalogVersion) throws(PageTokenError) {
        try self.init(text: text, key: version.tokenKey, catalogID: version.catalogID)
    }

    private init(text: String, key: SIMD2<UInt64>, catalogID: String?) throws(PageTokenError) {
        guard text.utf8.count <= Self.maximumTextLength, let bytes = Base64URL.decode(text), bytes.count >= 2 + 2 + 2 + 1 + 2 + 8 else {
            throw .malformed
        }
        guard bytes[0] == Self.format || bytes[0] == Self.formatWithMinimumScore else { throw .unsupportedVersion(bytes[0]) }
        let scoreBytes = bytes[0] == Self.formatWithMinimumScore ? 8 : 0
        let body = bytes[0..<(bytes.count - 8)]
        var mac: UInt64 = 0
        for i in 0..<8 { mac |= UInt64(bytes[bytes.count - 8 + i]) << (8 * UInt64(i)) }
        guard SipHash24(key: key).hash(body) == mac else {
            // Signed with another key: another catalog when the page token inside names one.
            var reader = Reader(bytes: Array(body), position: 1)
            if let catalogID, reader.byte() != nil, reader.take(scoreBytes) != nil, reader.integer(2) != nil, let count = reader.integer(2), let inner = reader.take(Int(count)),
               PageToken(String(decoding: inner, as: UTF8.self)).namesCatalog(catalogID) == false {
                throw .differentCatalog
            }
            throw .tampered
        }
        var reader = Reader(bytes: Array(body), position: 1)
        guard let profile = reader.byte() else { throw .malformed }
        var minimumScore: Double?
        if scoreBytes > 0 {
            guard let bits = reader.integer(8), case let score = Double(bitPattern: bits), SearchRequest.minimumScores.contains(score) else { throw .malformed }
            minimumScore = score
        }
        guard let pageSize = reader.integer(2), let innerCount = reader.integer(2), let inner = reader.take(Int(innerCount)),
              let labelCount = reader.byte() else { throw .malformed }
        var labels: [String] = []
        for _ in 0..<labelCount {
            guard let count = reader.byte(), let label = reader.take(Int(count)) else { throw .malformed }
            labels.append(String(decoding: label, as: UTF8.self))
        }
        guard let fingerprintCount = reader.integer(2), let serialized = reader.take(Int(fingerprintCount)),
              let fingerprint = try? Fingerprint(serialized: serialized) else { throw .malformed }
        var copyKey: CopyKey?
        if !reader.isAtEnd {
            guard let count = reader.byte(), let key = reader.take(Int(count)), let decoded = CopyKey(bytes: key) else { throw .malformed }
            copyKey = decoded
        }
        guard reader.isAtEnd else { throw .malformed }
        self.init(fingerprint: fingerprint, labels: labels, profile: profile, pageSize: Int(pageSize),
                  pageToken: PageToken(String(decoding: inner, as: UTF8.self)), copyKey: copyKey, minimumScore: minimumScore)
    }

    private static func append(_ value: UInt64, _ count: Int, _ bytes: inout [UInt8]) {
        for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    /// Bounds-checked little-endian reads.
    private struct Reader {
        var bytes: [UInt8]
        var position: Int
        var isAtEnd: Bool { position == bytes.count }
        mutating func byte() -> UInt8? { take(1)?.first }
        mutating func integer(_ count: Int) -> UInt64? {
            guard let part = take(count) else { return nil }
            return part.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= bytes.count - position else { return nil }
            defer { position += count }
            return Array(bytes[position..<(position + count)])
        }
    }
}
