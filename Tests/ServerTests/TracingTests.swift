import Foundation
import HTTPTypes
import InMemoryTracing
import Server
import Testing
import Tracing

/// Request traces: one server span per request continuing the caller's trace, with a child
/// span per stage, recorded by an in-memory tracer handed to the server.
@Suite struct TracingTests {
    /// The trace headers the in-memory tracer propagates (an OpenTelemetry tracer reads W3C `traceparent`).
    static func callerHeaders(trace: String, span: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name(InMemoryTracer.traceIDKey)!] = trace
        headers[HTTPField.Name(InMemoryTracer.spanIDKey)!] = span
        return headers
    }

    @Test func aSearchIsOneSpanContinuingTheCallersTraceWithAChildPerStage() async throws {
        let tracer = InMemoryTracer()
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.tracing = RequestTracing(tracer: tracer) }
        let image = Array(try Data(contentsOf: URL(fileURLWithPath: Harness.screenshot)))
        let answer = try await server.request(.post, "/v1/search?region=\(Harness.screenshotRegion)&page_size=1",
                                              headers: Self.callerHeaders(trace: "caller-trace", span: "caller-span"), body: image)
        await server.stop()
        #expect(answer.status == 200)

        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.kind == .server && $0.operationName == "POST /v1/search" }, "\(spans.map(\.operationName))")
        #expect(request.traceID == "caller-trace" && request.parentSpanID == "caller-span")
        #expect(request.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(request.attributes["http.route"]?.toSpanAttribute() == "/v1/search")
        let children = spans.filter { $0.parentSpanID == request.spanID }
        #expect(Set(children.map(\.operationName)) == ["body receive", "decode and fingerprint", "index search", "ranking", "entity reads"])
        #expect(children.allSatisfy { $0.traceID == "caller-trace" })
        // Each stage lies within the request's span.
        for child in children {
            #expect(child.startInstant.nanosecondsSinceEpoch >= request.startInstant.nanosecondsSinceEpoch - 1_000_000, "\(child.operationName)")
            #expect(child.endInstant.nanosecondsSinceEpoch <= request.endInstant.nanosecondsSinceEpoch + 1_000_000, "\(child.operationName)")
        }
    }

    @Test func anEntityReadAndARefusalAreTracedWithoutACallerTrace() async throws {
        let tracer = InMemoryTracer()
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.tracing = RequestTracing(tracer: tracer) }
        #expect(try await server.request(.get, "/v1/landmarks/food%2Fapricot").status == 200)
        #expect(try await server.request(.get, "/v1/landmarks/no%2Fsuch").status == 404)
        await server.stop()
        let requests = tracer.finishedSpans.filter { $0.kind == .server && $0.operationName == "GET /v1/landmarks/{id}" }
        #expect(requests.count == 2 && requests.allSatisfy { $0.parentSpanID == nil })
        let statuses = requests.compactMap { request -> SpanAttribute? in request.attributes["http.response.status_code"]?.toSpanAttribute() }
        #expect(statuses.count == 2 && statuses.contains(200) && statuses.contains(404))
        for request in requests {
            #expect(tracer.finishedSpans.contains { $0.parentSpanID == request.spanID && $0.operationName == "entity reads" })
        }
    }
}
