/// Why a page token was refused. Tokens are opaque: only pass back one that a page of
/// the same query on the same catalog returned.
public enum PageTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not base64url, or the wrong length: not a Glimpse page token at all.
    case malformed
    /// Made by a newer or older format (version found).
    case unsupportedVersion(UInt8)
    /// The token was made by a different catalog.
    case differentCatalog
    /// The token's checksum does not match its contents: it was altered.
    case tampered
    /// The catalog changed since the token was made (token's generation, current one):
    /// results would shift, so the query must start again from the first page.
    case catalogChanged(tokenGeneration: Int64, currentGeneration: Int64)
    /// The token continues a different query (other pixels or labels).
    case differentQuery

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .malformed: "page token is malformed (not a token this program issued)"
        case .unsupportedVersion(let v): "page token has unsupported format version \(v); start again from the first page"
        case .differentCatalog: "page token belongs to a different catalog; start again from the first page"
        case .tampered: "page token was altered (checksum mismatch); start again from the first page"
        case .catalogChanged(let old, let new):
            "page token is stale: the catalog changed since it was issued (generation \(old), now \(new)); start again from the first page"
        case .differentQuery: "page token belongs to a different query (other image or labels); start again from the first page"
        }
    }
}
