import Hummingbird

/// Guards the admin routes: `Authorization: Bearer TOKEN` compared with the server's
/// token in constant time (the time does not depend on where the bytes differ). 401
/// (with `WWW-Authenticate`) without a header or with a malformed one, 403 with a wrong
/// token, 403 `admin_disabled` when the server was started without `--admin-token-file`.
struct AdminAuthMiddleware: RouterMiddleware {
    typealias Context = GlimpseRequestContext
    /// The expected token, `nil` when admin is disabled.
    let token: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token else {
            throw APIError(.forbidden, "admin_disabled", "catalog changes over HTTP are disabled: start the server with --admin-token-file")
        }
        let challenge: HTTPFields = [.wwwAuthenticate: "Bearer realm=\"glimpse-admin\""]
        guard let header = request.headers[.authorization] else {
            throw APIError(.unauthorized, "unauthorized", "admin endpoints need 'Authorization: Bearer TOKEN'", headers: challenge)
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw APIError(.unauthorized, "unauthorized", "malformed Authorization header: expected 'Bearer TOKEN'", headers: challenge)
        }
        guard Self.constantTimeEqual(Array(parts[1].utf8), Array(token.utf8)) else {
            throw APIError(.forbidden, "forbidden", "the bearer token is not the admin token")
        }
        return try await next(request, context)
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
