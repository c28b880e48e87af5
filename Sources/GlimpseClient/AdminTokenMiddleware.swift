import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Adds `Authorization: Bearer TOKEN` to the admin operations (remove, undo) only, so the token
/// never travels with a search.
struct AdminTokenMiddleware: ClientMiddleware {
    /// The server's admin token, or nil to send none (the server then answers 401).
    var token: String?
    /// The operations of `openapi.yaml` that need the `adminToken` security scheme.
    static let adminOperations: Set<String> = ["removeEntity", "undoRemoval"]

    /// Adds the header when the operation is an admin one and a token is set.
    /// - Complexity: O(1).
    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var request = request
        if let token, Self.adminOperations.contains(operationID) {
            request.headerFields[.authorization] = "Bearer \(token)"
        }
        return try await next(request, body, baseURL)
    }
}
