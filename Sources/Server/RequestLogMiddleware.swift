import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives each request an id (the client's `X-Request-ID` when it is a short token,
/// otherwise a random one, echoed in the response), then writes one structured log line
/// per request (method, route, status, duration, request id) and records it in
/// ``ServerMetrics``. Outermost middleware, so it sees the final status of every answer.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = GlimpseRequestContext
    let logger: Logger
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var context = context
        if let given = request.headers[.xRequestID], (1...64).contains(given.utf8.count),
           given.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            context.requestID = given
        } else {
            context.requestID = String(UInt64.random(in: 0 ... .max), radix: 16)
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Only reached if the error middleware itself failed.
            response = Response(status: .internalServerError)
        }
        response.headers[.xRequestID] = context.requestID
        let duration = ContinuousClock.now - started
        let route = context.endpointPath ?? "unmatched"
        let status = response.status.code
        metrics.recordRequest(method: request.method.rawValue, route: route, status: status, duration: duration)
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        logger.info("request", metadata: [
            "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(status)",
            "duration_ms": "\(String(format: "%.3f", Double(micros) / 1000))", "request_id": "\(context.requestID)",
        ])
        return response
    }
}

extension HTTPField.Name {
    /// `X-Request-ID`.
    static let xRequestID = HTTPField.Name("X-Request-ID")!
}
