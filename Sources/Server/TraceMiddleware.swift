import HTTPTypes
import Hummingbird
import Tracing

/// One server span per request, continuing the caller's trace when its headers carry one
/// (W3C `traceparent` with an OpenTelemetry tracer), named `METHOD route` and carrying the
/// method, route, status and request id; the routes' stage spans are its children (the span's
/// context is the task-local one while the request runs).
struct TraceMiddleware: RouterMiddleware {
    typealias Context = GlimpseRequestContext
    /// Where the spans go.
    let tracing: RequestTracing

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let tracer = tracing.tracer
        var parent = ServiceContext.topLevel
        tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        let route = context.endpointPath ?? "unmatched"
        let span = tracer.startSpan("\(request.method.rawValue) \(route)", context: parent, ofKind: .server)
        defer { span.end() }
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["http.route"] = route
        span.attributes["glimpse.request_id"] = context.requestID
        do {
            let response = try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
            span.attributes["http.response.status_code"] = response.status.code
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
            return response
        } catch {
            span.recordError(error)
            throw error
        }
    }
}
