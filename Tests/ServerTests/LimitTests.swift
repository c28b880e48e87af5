import Foundation
import GlimpseProcessTesting
import HTTPTypes
@testable import Server
import Testing

/// Every refusal has its status and a JSON `{"error", "message"}` body.
@Suite struct LimitTests {
    @Test func aBodyOverTheLimitIs413BeforeItEnds() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.maxBodyBytes = 100_000 }
        defer { Task { await server.stop() } }
        // Declared too large: refused at once.
        let declared = try await server.request(.post, "/v1/search", body: [UInt8](repeating: 0xFF, count: 150_000))
        #expect(declared.status == 413 && declared.errorCode == "payload_too_large")
        // Streamed without a length and never finished: the answer comes while it streams,
        // so the server did not wait for (or buffer) the whole body.
        let connection = try RawConnection(port: server.port)
        connection.send("POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = "9c40\r\n" + String(repeating: "x", count: 40_000) + "\r\n"
        for _ in 0..<3 { connection.send(chunk) }
        let response = await connection.response()
        #expect(response.status == 413)
        #expect(response.text.contains("\"payload_too_large\""))
    }

    @Test func notAnImageIs415AndCorruptOrHugeIs422() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.maxPixels = 100_000 }
        defer { Task { await server.stop() } }
        let text = try await server.request(.post, "/v1/search", body: Array("hello, this is not an image".utf8))
        #expect(text.status == 415 && text.errorCode == "unsupported_image")
        let empty = try await server.request(.post, "/v1/search", body: [])
        #expect(empty.status == 422 && empty.errorCode == "empty_image")
        let jpeg = Array(try Data(contentsOf: URL(fileURLWithPath: Harness.testdata("catalog/landmarks/hurricane-ridge.jpg"))))
        let truncated = try await server.request(.post, "/v1/search", body: Array(jpeg.prefix(600)))
        #expect(truncated.status == 422, "\(truncated.text)")
        let huge = try await server.search(file: Harness.screenshot)
        #expect(huge.status == 422 && huge.errorCode == "image_too_large", "over the 100,000-pixel cap")
        #expect(huge.text.contains("exceeds the limit"))
    }

    @Test func badParametersAre400() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        for query in ["region=1,2,3", "region=a,b,c,d", "region=0,0,0,10", "region_fraction=0,0,2,1", "region=0,0,1,1&region_fraction=0,0,1,1",
                      "page_size=0", "page_size=1001", "page_size=x", "deadline_ms=0", "deadline_ms=60001", "deadline_ms=99999999999999999999", "exact=yes", "exact=1", "page_size=1&page_size=3", "labels=a&labels=b"] {
            let answer = try await server.search(file: Harness.screenshot, query: query)
            #expect(answer.status == 400, "\(query)")
            #expect(answer.errorCode == "invalid_parameter", "\(query)")
        }
        let outside = try await server.search(file: Harness.screenshot, query: "region=5000,5000,10,10")
        #expect(outside.status == 400 && outside.errorCode == "invalid_region")
    }

    @Test func unknownRoutesAre404JSON() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        for path in ["/index.html", "/v2/search", "/v1/landmarks", "/v1/things/x"] {  // "/" is the search page
            let answer = try await server.request(.get, path)
            #expect(answer.status == 404, "\(path)")
            #expect(answer.errorCode == "not_found" && answer.header("Content-Type") == "application/json; charset=utf-8")
        }
    }

    @Test func moreSearchesThanTheLimitAre429WithRetryAfter() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.maxConcurrentSearches = 1 }
        defer { Task { await server.stop() } }
        // A search running in the only slot (held here until released; an upload no longer
        // holds one: slots are taken once the body is in).
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let (hasEntered, entered) = AsyncStream.makeStream(of: Void.self)
        let running = Task {
            try await server.state.slots.withSlot {
                entered.yield()
                for await _ in released { break }
            }
        }
        for await _ in hasEntered { break }
        let answer = try await server.search(file: Harness.screenshot)
        #expect(answer.status == 429)
        #expect(answer.header("Retry-After") == "1")
        #expect(answer.errorCode == "too_many_requests")
        release.yield()
        try await running.value
        #expect(try await server.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)").status == 200)
        let metrics = try await server.request(.get, "/metrics")
        #expect(metrics.text.contains("glimpse_rejected_requests_total{reason=\"too_many_requests\"}"))
    }
}
