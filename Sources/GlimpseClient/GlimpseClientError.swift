import GlimpseAPITypes

/// Why a ``GlimpseClient`` call failed.
///
/// The server's own refusals arrive as ``server(status:code:message:retryAfterSeconds:)`` with
/// the stable `error` code of its JSON error body (`invalid_region`, `not_found`,
/// `too_many_requests`…, listed in `openapi.yaml`), so callers can switch on the code.
public enum GlimpseClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with an error status and its JSON error body.
    /// - Parameters:
    ///   - status: the HTTP status (400, 404, 429, 503…).
    ///   - code: the body's stable `error` code.
    ///   - message: the body's human-readable `message`.
    ///   - retryAfterSeconds: the `Retry-After` header in seconds, when the server sent one.
    case server(status: Int, code: String, message: String, retryAfterSeconds: Int?)
    /// The server answered with a status or body the API does not describe (for example a
    /// proxy's HTML error page); `detail` names what was received.
    case unexpectedResponse(status: Int, detail: String)
    /// No answer within the configured time-out (``GlimpseClient/Configuration/requestTimeout``).
    case timedOut(operation: String)
    /// The request could not be sent or its answer not read (connection refused, reset, DNS…).
    case transport(operation: String, detail: String)
    /// An argument the client refuses before sending anything (an empty id, a page size out of
    /// 1…1000, a deadline out of 1…60,000 ms…); `detail` says which and why.
    case invalidArgument(detail: String)

    /// The server's stable error code, when the server refused the request.
    public var code: String? {
        if case .server(_, let code, _, _) = self { return code }
        return nil
    }

    /// The HTTP status, when an answer arrived.
    public var status: Int? {
        switch self {
        case .server(let status, _, _, _), .unexpectedResponse(let status, _): return status
        case .timedOut, .transport, .invalidArgument: return nil
        }
    }

    /// One line naming what failed and why.
    public var description: String {
        switch self {
        case .server(let status, let code, let message, let retryAfter):
            let retry = retryAfter.map { ", retry after \($0) s" } ?? ""
            return "glimpse server refused the request: \(status) \(code): \(message)\(retry)"
        case .unexpectedResponse(let status, let detail):
            return "glimpse server gave an answer the API does not describe: \(status): \(detail)"
        case .timedOut(let operation):
            return "\(operation): no answer from the glimpse server within the time-out"
        case .transport(let operation, let detail):
            return "\(operation): could not reach the glimpse server: \(detail)"
        case .invalidArgument(let detail):
            return "invalid argument: \(detail)"
        }
    }
}
