import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends a request again when the server answered 429 or 503 (busy, not ready, store
/// unavailable), after the answer's `Retry-After` seconds (0.25 s doubling without one), up to
/// ``GlimpseClientConfiguration/retries`` times. Operations that change the catalog, and requests
/// whose body can be sent only once, are never retried; a `Retry-After` over
/// ``GlimpseClientConfiguration/maximumRetryDelay`` ends the retries with the server's error.
struct RetryMiddleware: ClientMiddleware {
    /// The retry settings.
    var configuration: GlimpseClientConfiguration
    /// Operation ids that change the catalog (never retried).
    static let unsafeOperations: Set<String> = ["removeEntity", "undoRemoval"]

    /// Sends, and on a retryable refusal waits and sends again.
    /// - Complexity: O(retries) requests.
    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        let repeatable = body == nil || body?.iterationBehavior == .multiple
        let retries = Self.unsafeOperations.contains(operationID) || !repeatable ? 0 : configuration.retries
        var attempt = 0
        while true {
            do {
                return try await next(request, body, baseURL)
            } catch {
                guard attempt < retries, let delay = retryDelay(after: error, attempt: attempt) else { throw error }
                attempt += 1
                try await Task.sleep(for: delay)
            }
        }
    }

    /// How long to wait before the next attempt, or nil when `error` is not worth retrying.
    /// - Complexity: O(1).
    func retryDelay(after error: any Error, attempt: Int) -> Duration? {
        let refusal = (error as? ClientError)?.underlyingError as? GlimpseClientError ?? error as? GlimpseClientError
        guard case .server(let status, _, _, let retryAfter) = refusal, status == 429 || status == 503 else { return nil }
        let delay: Duration = retryAfter.map { .seconds(max(0, $0)) } ?? .milliseconds(250 * (1 << min(attempt, 6)))
        return delay <= configuration.maximumRetryDelay ? delay : nil
    }
}
