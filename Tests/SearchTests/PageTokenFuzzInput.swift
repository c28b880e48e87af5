import Catalog
@testable import Search

/// One input of the page-token fuzzer (`scripts/fuzz.sh pagetoken`). Shared by the
/// libFuzzer entry point (fuzz/PageTokenFuzzer.swift, which compiles this file too) and
/// ``PageTokenFuzzRegressionTests``, so a saved input replays exactly.
///
/// Two checks per input:
/// 1. The bytes, as text a client sent, are parsed as a token: it is refused with a
///    ``PageTokenError``, or (only if the fuzzer forged the MAC) accepted as exactly the
///    token Glimpse would have issued for that payload.
/// 2. The first 28 bytes are taken as payload fields (offset, page size, query digest,
///    generation, token key); a token issued for them must decode to the same payload
///    (offset and size clamped to 32 bits) for that catalog state and query, and be refused
///    for another generation, query or catalog, and after any one character is changed.
enum PageTokenFuzzInput {
    static let catalogID = "fuzz-catalog"

    /// `nil` when the parser behaved, otherwise what went wrong.
    static func run(_ bytes: [UInt8]) -> String? {
        let version = CatalogVersion(catalogID: catalogID, generation: 7, tokenKey: SIMD2(0x0123_4567_89AB_CDEF, 0x0F1E_2D3C_4B5A_6978))
        let digest: UInt64 = 0xD16E_57D1_6E57_D16E
        // 1. Arbitrary text.
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            let payload = try PageToken(text).payload(for: version, queryDigest: digest)
            let reissued = PageToken(offset: payload.offset, pageSize: payload.pageSize, queryDigest: digest, version: version)
            if reissued.text != text { return "accepted a token Glimpse would not issue: \(text)" }
        } catch {
            if error.description.isEmpty { return "empty error description" }
        }
        // 2. A token issued for fuzzed fields.
        guard bytes.count >= 28 else { return nil }
        func field(_ at: Int, _ count: Int) -> UInt64 {
            (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        let offset = Int(Int32(truncatingIfNeeded: field(0, 4)))       // may be negative
        let pageSize = Int(Int32(truncatingIfNeeded: field(4, 4)))
        let queryDigest = field(8, 8)
        let state = CatalogVersion(catalogID: catalogID, generation: Int64(bitPattern: field(16, 8)),
                                   tokenKey: SIMD2(field(24, 4), ~field(24, 4)))
        let token = PageToken(offset: offset, pageSize: pageSize, queryDigest: queryDigest, version: state)
        do {
            let payload = try token.payload(for: state, queryDigest: queryDigest)
            let expected = PageToken.Payload(
                offset: Int(UInt32(clamping: offset)), pageSize: Int(UInt32(clamping: pageSize)), queryDigest: queryDigest,
                catalogIDHash: payload.catalogIDHash, generation: state.generation)
            if payload != expected { return "round trip changed the payload: \(payload) != \(expected)" }
        } catch {
            return "refused its own token: \(error)"
        }
        var later = state
        later.generation &+= 1
        guard case .failure(.catalogChanged) = Result(catching: { () throws(PageTokenError) in try token.payload(for: later, queryDigest: queryDigest) }) else {
            return "accepted a token from an older generation"
        }
        guard case .failure(.differentQuery) = Result(catching: { () throws(PageTokenError) in try token.payload(for: state, queryDigest: queryDigest &+ 1) }) else {
            return "accepted a token for another query"
        }
        var other = state
        other.catalogID = "another-catalog"
        other.tokenKey &+= SIMD2(1, 1)
        guard case .failure(.differentCatalog) = Result(catching: { () throws(PageTokenError) in try token.payload(for: other, queryDigest: queryDigest) }) else {
            return "accepted a token from another catalog"
        }
        var characters = Array(token.text.utf8)
        let position = bytes.count > 28 ? Int(bytes[28]) % characters.count : 0
        let replacement = bytes.count > 29 ? bytes[29] : UInt8(ascii: "A")
        if characters[position] != replacement {
            characters[position] = replacement
            let altered = PageToken(String(decoding: characters, as: UTF8.self))
            if (try? altered.payload(for: state, queryDigest: queryDigest)) != nil {
                return "accepted an altered token \(altered.text) (from \(token.text))"
            }
        }
        return nil
    }
}
