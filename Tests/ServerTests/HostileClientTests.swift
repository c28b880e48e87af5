import Foundation
import GlimpseProcessTesting
import HTTPTypes
import PixelBuffers
@testable import Server
import Testing

/// Hostile-but-ordinary clients against the real server on raw connections: slow and
/// stalled uploads, HTTP/1.0, `Expect: 100-continue`, requests the HTTP parser refuses,
/// browser form uploads and images thinner than any photo.
@Suite struct HostileClientTests {
    /// Reads until the server closes the connection (or 20 s pass); the seconds it took.
    static func readUntilClosed(_ connection: RawConnection) async -> (status: Int, text: String, seconds: Double) {
        let started = ContinuousClock.now
        let answer = await connection.response()
        let elapsed = ContinuousClock.now - started
        return (answer.status, answer.text, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test func stalledAndDrippingUploadsHoldNoSearchSlotAndGet408() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) {
            $0.maxConcurrentSearches = 2
            $0.upload = UploadPolicy(stallSeconds: 1, minimumBytesPerSecond: 1_000)
        }
        defer { Task { await server.stop() } }
        // More stalled uploads than there are search slots: 10 bytes of a 100,000-byte body, then nothing.
        let stalled = try (0..<4).map { _ in try RawConnection(port: server.port) }
        for connection in stalled {
            connection.send("POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n0123456789")
        }
        // One that drips a byte every 100 ms: never silent for a second, far under 1,000 bytes/s.
        let dripping = try RawConnection(port: server.port)
        dripping.send("POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
        let drip = Task.detached {
            for _ in 0..<100 where dripping.send("x") { try? await Task.sleep(for: .milliseconds(100)) }
        }
        defer { drip.cancel() }
        // Searches meanwhile find free slots.
        for _ in 0..<3 {
            let answer = try await server.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)")
            #expect(answer.status == 200, "a search beside stalled uploads: \(answer.status) \(answer.text)")
        }
        for connection in stalled + [dripping] {
            let answer = await Self.readUntilClosed(connection)
            #expect(answer.status == 408, "\(answer.text)")
            #expect(answer.text.contains(#""error":"request_timeout""#))
            #expect(HTTPConformanceTests.header("Connection", in: answer.text) == "close")
            #expect(answer.seconds < 10, "the server closed the connection after its answer, \(answer.seconds) s")
        }
        let metrics = try await server.request(.get, "/metrics")
        #expect(metrics.text.contains(#"glimpse_rejected_requests_total{reason="request_timeout"}"#))
    }

    @Test func bodiesBeyondTheBufferedBudgetAre429() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) {
            $0.maxBodyBytes = 3_000_000
            $0.upload = UploadPolicy(stallSeconds: 60, minimumBytesPerSecond: 1, bufferedBytesBudget: 3_000_000)
        }
        defer { Task { await server.stop() } }
        // A declared body is reserved whole while it arrives; the search is sent only once
        // the server holds it (sent at once, a search could take its share first on a busy machine).
        let holder = try RawConnection(port: server.port)
        holder.send("POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2900000\r\n\r\nabcd")
        #expect(try await ProcessShutdownTests.bodyBytesHeld(atLeast: 2_900_000, port: server.port), "the held body was never reserved")
        let answer = try await server.search(file: Harness.screenshot)
        #expect(answer.status == 429, "a body that does not fit the budget beside the held one is refused: \(answer.text)")
        #expect(answer.errorCode == "uploads_busy" && answer.header("Retry-After") == "1")
    }

    @Test func http10IsAnsweredWithConnectionCloseAndClosed() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.idleTimeoutSeconds = 30 }
        defer { Task { await server.stop() } }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = await Self.readUntilClosed(connection)
        #expect(answer.status == 200)
        #expect(answer.text.hasPrefix("HTTP/1.0 200"), "the response keeps the request's version: \(answer.text)")
        #expect(HTTPConformanceTests.header("Connection", in: answer.text) == "close")
        #expect(answer.seconds < 5, "closed after the answer, not after the 30 s idle timeout: \(answer.seconds) s")
    }

    @Test func expect100ContinueIsAnsweredBeforeTheBodyIsSent() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let image = Array(try Data(contentsOf: URL(fileURLWithPath: Harness.testdata("catalog/landmarks/hurricane-ridge.jpg"))))
        let connection = try RawConnection(port: server.port)
        connection.send("POST /v1/search?page_size=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: \(image.count)\r\nConnection: close\r\n\r\n")
        let interim = connection.readLine()
        #expect(interim == "HTTP/1.1 100 Continue", "the interim answer comes before any body byte")
        connection.send(image)
        let final = await connection.response()
        #expect(final.status == 200 && final.text.contains("hurricane-ridge"), "\(final.text.prefix(300))")
        // Another expectation is refused.
        let other = try await HTTPConformanceTests.exchange(server.port, "POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something-else\r\nContent-Length: 4\r\n")
        #expect(other.status == 417 && other.text.contains(#""error":"expectation_failed""#))
    }

    @Test func requestsTheParserRefusesGetJSONErrorsWithARequestIDAndAMetric() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let host = "Host: 127.0.0.1\r\n"
        let cases: [(String, String, Int, String)] = [
            ("100 KB URL", "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\n\(host)\r\n", 414, "uri_too_long"),
            ("1 MB header", "GET /healthz HTTP/1.1\r\n\(host)X-Big: " + String(repeating: "b", count: 1_000_000) + "\r\n\r\n", 431, "headers_too_large"),
            ("3,000 headers", "GET /healthz HTTP/1.1\r\n\(host)" + (0..<3000).map { "X-\($0): 1\r\n" }.joined() + "\r\n", 431, "headers_too_large"),
            ("lower-case method", "get /healthz HTTP/1.1\r\n\(host)\r\n", 400, "malformed_request"),
            ("unknown method", "FROB /healthz HTTP/1.1\r\n\(host)\r\n", 400, "malformed_request"),
            ("bare LF", "GET /healthz HTTP/1.1\n\(host.dropLast(2))\n\n", 400, "malformed_request"),
            ("control byte in a header", "GET /healthz HTTP/1.1\r\n\(host)X-A: a\u{1}b\r\n\r\n", 400, "malformed_request"),
        ]
        for (name, raw, status, code) in cases {
            let connection = try RawConnection(port: server.port)
            connection.send(raw)
            let answer = await Self.readUntilClosed(connection)
            #expect(answer.status == status, "\(name): \(answer.text.prefix(200))")
            #expect(HTTPConformanceTests.body(of: answer.text).contains(#""error":"\#(code)""#), "\(name)")
            #expect(HTTPConformanceTests.header("Content-Type", in: answer.text) == "application/json; charset=utf-8", "\(name)")
            #expect(HTTPConformanceTests.header("X-Request-ID", in: answer.text)?.isEmpty == false, "\(name)")
        }
        // A good request pipelined before a bad one is answered first.
        let pipelined = try RawConnection(port: server.port)
        pipelined.send("GET /healthz HTTP/1.1\r\n\(host)\r\nget /healthz HTTP/1.1\r\n\r\n")
        let both = await Self.readUntilClosed(pipelined)
        #expect(both.text.hasPrefix("HTTP/1.1 200") && both.text.contains("HTTP/1.1 400"), "\(both.text)")
        let metrics = try await server.request(.get, "/metrics")
        for (status, code) in [(414, "uri_too_long"), (431, "headers_too_large"), (400, "malformed_request")] {
            #expect(metrics.text.contains(#"glimpse_http_requests_total{method="-",route="unparsed",status="\#(status)"}"#), "\(status)")
            #expect(metrics.text.contains(#"glimpse_rejected_requests_total{reason="\#(code)"}"#), "\(code)")
        }
    }

    @Test func aBrowserFormUploadIsSearchedLikeTheFileItself() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let image = Array(try Data(contentsOf: URL(fileURLWithPath: Harness.testdata("catalog/landmarks/hurricane-ridge.jpg"))))
        func form(_ parts: [(disposition: String, body: [UInt8])]) -> [UInt8] {
            var body: [UInt8] = Array("preamble\r\n".utf8)
            for part in parts {
                body += Array("--XyZ\r\nContent-Disposition: form-data; \(part.disposition)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
                body += part.body + Array("\r\n".utf8)
            }
            return body + Array("--XyZ--\r\n".utf8)
        }
        let headers: HTTPFields = [.contentType: "multipart/form-data; boundary=XyZ"]
        let direct = try await server.request(.post, "/v1/search?page_size=3", body: image)
        let viaForm = try await server.request(.post, "/v1/search?page_size=3", headers: headers,
                                               body: form([("name=\"image\"; filename=\"hurricane ridge.jpg\"", image)]))
        #expect(viaForm.status == 200, "\(viaForm.text)")
        let formResults = try #require(try viaForm.json()["results"] as? NSArray), directResults = try #require(try direct.json()["results"] as? NSArray)
        #expect(formResults == directResults && directResults.count > 0, "the same page as the file uploaded alone")
        let extraField = try await server.request(.post, "/v1/search", headers: headers,
                                                  body: form([("name=\"page_size\"", Array("3".utf8)), ("name=\"file\"; filename=\"a.jpg\"", image)]))
        #expect(extraField.status == 400 && extraField.errorCode == "invalid_multipart" && extraField.text.contains("page_size"))
        let twoFiles = try await server.request(.post, "/v1/search", headers: headers,
                                                body: form([("name=\"a\"; filename=\"a.jpg\"", image), ("name=\"b\"; filename=\"b.jpg\"", image)]))
        #expect(twoFiles.status == 400 && twoFiles.errorCode == "invalid_multipart")
        let unterminated = try await server.request(.post, "/v1/search", headers: headers, body: Array(form([("name=\"image\"", image)]).dropLast(9)))
        #expect(unterminated.status == 400 && unterminated.text.contains("closing boundary"))
    }

    @Test func imagesThinnerThanOneToAHundredAre422AndDeadlinesCoverDecoding() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        for (width, height) in [(20_000, 1), (1, 20_000), (10_100, 100)] {
            let sliver = try PixelBuffer(format: .gray8, width: width, height: height, bytes: [UInt8](repeating: 90, count: width * height))
            let answer = try await server.request(.post, "/v1/search", body: try PNGEncoder().encode(sliver))
            #expect(answer.status == 422 && answer.errorCode == "image_too_thin", "\(width)x\(height): \(answer.text)")
        }
        let panorama = try PixelBuffer(format: .gray8, width: 10_000, height: 100,
                                       bytes: (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 ^ ($0 / 10_000)) })
        #expect(try await server.request(.post, "/v1/search", body: try PNGEncoder().encode(panorama)).status == 200, "1:100 is searched")
        // A deadline shorter than the decode leaves nothing for the scan: a partial page.
        let cut = try await server.search(file: Harness.screenshot, query: "deadline_ms=1&exact=true")
        #expect(cut.status == 200)
        #expect(try cut.json()["partial"] as? Bool == true, "\(cut.text.prefix(200))")
    }
}
