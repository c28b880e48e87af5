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
        try BearerToken(token: token, realm: "glimpse-admin", missing: "admin endpoints need 'Authorization: Bearer TOKEN'", name: "admin token")
            .check(request)
        return try await next(request, context)
    }
}
