import GlimpseAPITypes
import Hummingbird

/// An HTTP error answer: a status, a stable code and a message, sent as
/// the spec's `Error` JSON (`Components.Schemas.ErrorBody`: `{"error": CODE, "message": TEXT}`), plus any extra headers
/// (`Retry-After`, `WWW-Authenticate`).
public struct APIError: HTTPResponseError, Sendable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The stable code (the body's `error`).
    public var code: String
    /// One line naming what was refused and why.
    public var message: String
    /// Extra response headers.
    public var headers: HTTPFields

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The JSON response. O(message).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = WireResponseEncoder().encode(Components.Schemas.ErrorBody(error: code, message: message), from: request, context: context)
        response.status = status
        for field in headers { response.headers[field.name] = field.value }
        return response
    }

    /// 400 with `code`.
    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    /// 404 `not_found`.
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }
    /// 503 `store_unavailable`: the catalog store failed.
    static func store(_ error: some Error & CustomStringConvertible) -> APIError {
        APIError(.serviceUnavailable, "store_unavailable", "the catalog store failed: \(error.description)", headers: [.retryAfter: "1"])
    }
    /// 503 `not_ready`: the index is not loaded yet.
    static let notReady = APIError(.serviceUnavailable, "not_ready", "the search index is still loading; retry shortly", headers: [.retryAfter: "1"])
}
