import Foundation
import HTTPTypes
import Testing

/// Health, readiness, metrics, the OpenAPI document, request ids.
@Suite struct OperationalEndpointTests {
    @Test func healthReadinessAndRequestIDs() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let health = try await server.request(.get, "/healthz")
        #expect(health.status == 200 && health.text == #"{"status":"ok"}"#)
        #expect(health.header("X-Request-ID")?.isEmpty == false)
        let ready = try await server.request(.get, "/readyz", headers: [HTTPField.Name("X-Request-ID")!: "my-id-42"])
        #expect(ready.status == 200)
        #expect(try ready.json()["views"] as? Int ?? 0 > 1000)
        #expect(ready.header("X-Request-ID") == "my-id-42")
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        _ = try await server.request(.get, "/v1/landmarks/nope")
        // The same search twice: scanned, then its kept ranking reused.
        for _ in 0..<2 { _ = try await server.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)") }
        let metrics = try await server.request(.get, "/metrics")
        #expect(metrics.text.contains(#"glimpse_search_rankings_total{source="scanned"} 1"#), "\(metrics.text)")
        #expect(metrics.text.contains(#"glimpse_search_rankings_total{source="reused"} 1"#))
        #expect(metrics.status == 200 && metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains(#"glimpse_http_requests_total{method="GET",route="/v1/landmarks/{id}",status="404"} 1"#))
        #expect(metrics.text.contains(#"glimpse_http_request_duration_seconds_bucket{method="POST",route="/v1/search",status="200""#))
        #expect(metrics.text.contains("glimpse_index_views 1"))
        #expect(metrics.text.contains("glimpse_index_generation"))
    }

    @Test func theOpenAPIDocumentIsTheCommittedFile() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.request(.get, "/openapi.yaml")
        #expect(answer.status == 200)
        let committed = try Data(contentsOf: Harness.root.appendingPathComponent("Sources/GlimpseAPITypes/openapi.yaml"))
        #expect(answer.body == Array(committed))
        #expect(answer.text.hasPrefix("openapi: 3.1"))
    }
}
