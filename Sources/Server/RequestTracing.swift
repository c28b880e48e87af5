import Foundation
import HTTPTypes
import Tracing

/// Where a server reports the traces of its requests, and how a request's stages become
/// spans: one server span per request (``TraceMiddleware``) with a child span per stage: body
/// receive, decode and fingerprint (one pass over the rows), index search, ranking and entity
/// reads. The default tracer records nothing, at the cost of a few no-op calls per request.
public struct RequestTracing: Sendable {
    /// The tracer spans go to (an OpenTelemetry exporter, an in-memory tracer in tests).
    public let tracer: any Tracer

    /// Tracing to `tracer`.
    /// - Complexity: O(1).
    public init(tracer: any Tracer) { self.tracer = tracer }

    /// No tracing: every span is a no-op.
    public static let disabled = RequestTracing(tracer: NoOpTracer())

    /// Runs `body` inside a child span named `stage` of the current request's span.
    /// - Complexity: `body`'s, plus one span.
    func stage<T>(_ stage: String, _ body: () async throws -> T) async throws -> T {
        try await tracer.withSpan(stage, context: .current ?? .topLevel, ofKind: .internal) { _ in try await body() }
    }

    /// Starts a child span named `stage` of the current request's span, for code that ends it
    /// itself (`defer { span.end() }`) because its errors are typed.
    /// - Complexity: O(1).
    func start(_ stage: String) -> any Span {
        tracer.startSpan(stage, context: .current ?? .topLevel, ofKind: .internal)
    }

    /// Reports a stage that already ran (timed on the continuous clock, as ``SearchStageTimes``
    /// are) as a child span of the current request's span.
    /// - Complexity: O(1).
    func record(_ stage: String, ran range: Range<ContinuousClock.Instant>?) {
        guard let range else { return }
        // Continuous-clock instants become wall-clock ones by their distance from now.
        let now = ContinuousClock.now, wallNow = DefaultTracerClock.now.nanosecondsSinceEpoch
        func wall(_ instant: ContinuousClock.Instant) -> DefaultTracerClock.Timestamp {
            let back = (now - instant).components
            let nanoseconds = back.seconds * 1_000_000_000 + back.attoseconds / 1_000_000_000
            return DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: wallNow - UInt64(clamping: max(0, nanoseconds)))
        }
        let span = tracer.startSpan(stage, context: .current ?? .topLevel, ofKind: .internal, at: wall(range.lowerBound))
        span.end(at: wall(range.upperBound))
    }
}

/// Reads trace context (W3C `traceparent`, or whatever the tracer propagates) from request headers.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
