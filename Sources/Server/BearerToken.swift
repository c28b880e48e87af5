import Hummingbird

/// The one check of an `Authorization: Bearer TOKEN` header, for every route that wants a
/// token (the admin endpoints, the cluster's internal endpoint): the header compared with
/// the expected token in constant time (the time does not depend on where the bytes differ).
struct BearerToken {
    /// The expected token.
    let token: String
    /// The `WWW-Authenticate` realm of a 401 (`glimpse-admin`, `glimpse-cluster`).
    let realm: String
    /// The 401 message without a header ("admin endpoints need 'Authorization: Bearer TOKEN'").
    let missing: String
    /// The token's name, for the 403 message ("the bearer token is not the admin token").
    let name: String

    /// Checks `request`'s header.
    ///
    /// - Throws: 401 `unauthorized` (with `WWW-Authenticate`) without a header or with a
    ///   malformed one; 403 `forbidden` with another token.
    /// - Complexity: O(token length).
    func check(_ request: Request) throws(APIError) {
        let challenge: HTTPFields = [.wwwAuthenticate: "Bearer realm=\"\(realm)\""]
        guard let header = request.headers[.authorization] else {
            throw APIError(.unauthorized, "unauthorized", missing, headers: challenge)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw APIError(.unauthorized, "unauthorized", "malformed Authorization header: expected 'Bearer TOKEN'", headers: challenge)
        }
        guard Self.constantTimeEqual(Array(parts[1].utf8), Array(token.utf8)) else {
            throw APIError(.forbidden, "forbidden", "the bearer token is not the \(name)")
        }
    }

    /// Whether `a` equals `b`, comparing every byte of the longer one whatever the first
    /// difference. O(max(a, b)).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt64(a.count ^ b.count)
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0
            let y = i < b.count ? b[i] : 0
            difference |= UInt64(x ^ y)
        }
        return difference == 0
    }
}
