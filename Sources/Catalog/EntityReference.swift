/// Names one entity by kind and id, and converts to and from its URL form
/// `glimpse://<kind>/<id>`, e.g. `glimpse://landmark/europe%2Feiffel-tower`.
///
/// Formatting percent-encodes every byte of the id's UTF-8 form outside the URL
/// "unreserved" set (`A–Z a–z 0–9 - . _ ~`), so ids containing `/`, spaces or any other
/// character round-trip. Parsing decodes percent escapes and also accepts raw `/` in the
/// id part (`glimpse://landmark/europe/eiffel-tower` names the same landmark).
public struct EntityReference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of entity.
    public var kind: EntityKind
    /// The entity's id (not encoded).
    public var id: String

    /// Creates a reference.
    public init(kind: EntityKind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// The URL scheme, `glimpse`.
    public static let scheme = "glimpse"

    /// Parses `glimpse://<kind>/<id>`. O(length).
    ///
    /// - Throws: ``EntityURLError`` naming the URL and what is wrong with it.
    public init(url: String) throws(EntityURLError) {
        let prefix = Self.scheme + "://"
        guard url.lowercased().hasPrefix(prefix) else { throw .notGlimpseURL(url) }
        let rest = url.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/") else { throw .missingID(url) }
        let kindText = String(rest[rest.startIndex..<slash]).lowercased()
        guard let kind = EntityKind(rawValue: kindText) else { throw .unknownKind(url, kindText) }
        let encoded = rest[rest.index(after: slash)...]
        guard !encoded.isEmpty else { throw .missingID(url) }
        if encoded.contains(where: { $0 == "?" || $0 == "#" }) { throw .invalidCharacters(url) }
        guard let id = Self.percentDecoded(encoded), !id.isEmpty else { throw .invalidPercentEncoding(url) }
        self.init(kind: kind, id: id)
    }

    /// The URL form, `glimpse://<kind>/<percent-encoded id>`. O(length of id).
    public var url: String { "\(Self.scheme)://\(kind.rawValue)/\(Self.percentEncoded(id))" }

    /// Same as ``url``.
    public var description: String { url }

    /// Percent-encodes every UTF-8 byte outside `A–Z a–z 0–9 - . _ ~`.
    public static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; `nil` when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes = [UInt8]()
        var iterator = Array(text.utf8).makeIterator()
        func hexValue(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// Why a string is not a valid Glimpse entity URL.
public enum EntityURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The string does not start with `glimpse://`.
    case notGlimpseURL(String)
    /// The kind is neither `landmark` nor `collection` (URL, kind found).
    case unknownKind(String, String)
    /// Nothing follows `glimpse://<kind>/`.
    case missingID(String)
    /// A `%` escape is malformed, or the decoded id is not UTF-8.
    case invalidPercentEncoding(String)
    /// The URL has a query (`?`) or fragment (`#`), which entity URLs never have.
    case invalidCharacters(String)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .notGlimpseURL(let url): "\(url): not a glimpse:// URL (expected glimpse://landmark/<id> or glimpse://collection/<id>)"
        case .unknownKind(let url, let kind): "\(url): unknown entity kind \"\(kind)\" (expected landmark or collection)"
        case .missingID(let url): "\(url): no id after the entity kind"
        case .invalidPercentEncoding(let url): "\(url): malformed percent escape in the id"
        case .invalidCharacters(let url): "\(url): entity URLs have no query or fragment; percent-encode ? and # in ids"
        }
    }
}
