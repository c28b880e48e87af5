import Hummingbird
import Logging
import OpenAPIRuntime

/// Turns every error a route throws into a JSON error answer (``APIError``): Hummingbird's
/// own errors (unknown route 404, bad request) keep their status with a JSON body; a known
/// path asked with another method is 405 `method_not_allowed` with `Allow` (``RouteTable``);
/// anything unexpected becomes 500 `internal_error` without details. A refusal by a limit
/// (408, 413, 429, 503) is counted in `glimpse_rejected_requests_total` under its error code.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = GlimpseRequestContext
    /// The routes, to tell an unknown path (404) from a method the path does not take (405).
    let routes: RouteTable
    /// Where refusals by a limit are counted.
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try refusal(error, request, context)
        } catch let error as ServerError {
            // The generated interface wraps what an operation throws, and its own refusals of a
            // request that does not follow the spec (a parameter of the wrong type, a missing one,
            // a body that is not the schema, an Accept the answer cannot meet).
            if let refused = error.underlyingError as? APIError { return try refusal(refused, request, context) }
            guard error.httpStatus.code < 500 else {
                context.logger.error("unexpected error", metadata: ["error": "\(error)"])
                return try APIError(.internalServerError, "internal_error", "the server failed to answer this request").response(from: request, context: context)
            }
            return try refusal(GeneratedRequestError.apiError(error), request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            let allowed = routes.allowedMethods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else {
                return try APIError.notFound("no such route: \(request.method) \(request.uri.path)").response(from: request, context: context)
            }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            return try APIError(.methodNotAllowed, "method_not_allowed", "\(request.method) is not allowed on \(request.uri.path); allowed: \(list)",
                                headers: [.allow: list]).response(from: request, context: context)
        } catch let error as HTTPError {
            let code = switch error.status {
            case .notFound: "not_found"
            case .methodNotAllowed: "method_not_allowed"
            case .contentTooLarge: "payload_too_large"
            default: error.status.code < 500 ? "bad_request" : "internal_error"
            }
            countRefusal(status: error.status.code, code: code)
            let message = error.body ?? (error.status == .notFound ? "no such route: \(request.method) \(request.uri.path)" : error.status.reasonPhrase)
            return try APIError(error.status, code, message).response(from: request, context: context)
        } catch {
            context.logger.error("unexpected error", metadata: ["error": "\(error)"])
            return try APIError(.internalServerError, "internal_error", "the server failed to answer this request").response(from: request, context: context)
        }
    }

    /// The answer of a refusal, counted when a limit refused it.
    private func refusal(_ error: APIError, _ request: Request, _ context: Context) throws -> Response {
        countRefusal(status: error.status.code, code: error.code)
        return try error.response(from: request, context: context)
    }

    /// Counts an answer refused by a limit (408, 413, 429, 503) under its error code.
    private func countRefusal(status: Int, code: String) {
        if [408, 413, 429, 503].contains(status) { metrics.recordRejection(code) }
    }
}
