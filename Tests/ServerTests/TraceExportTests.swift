import Foundation
import GlimpseProcessTesting
import Testing

/// `glimpse serve --otel-endpoint`: a real server process exports each request's spans over
/// OTLP/HTTP (protobuf) to a collector on loopback, continuing the caller's W3C `traceparent`.
@Suite struct TraceExportTests {
    @Test func aSearchsSpansReachTheCollectorInTheCallersTrace() async throws {
        let collector = try ScriptedPeer(status: "200 OK", headers: ["Content-Type: application/x-protobuf"], body: "")
        let server = try await ServedGlimpse(catalog: try await Harness.sharedCatalog.value,
                                             extra: ["--otel-endpoint", "http://127.0.0.1:\(collector.port)"],
                                             environment: ["OTEL_BSP_SCHEDULE_DELAY": "100"])
        let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
        let image = Array(try Data(contentsOf: URL(fileURLWithPath: Harness.screenshot)))
        let connection = try RawConnection(port: server.port)
        connection.send("POST /v1/search?region=\(Harness.screenshotRegion) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                        + "traceparent: 00-\(traceID)-00f067aa0ba902b7-01\r\nContent-Length: \(image.count)\r\n\r\n")
        connection.send(image)
        #expect(await connection.response().status == 200)
        // Stopping flushes what the batch processor still holds.
        server.stop()
        let exports = collector.receivedRequests.filter { $0.starts(with: Array("POST /v1/traces ".utf8)) }
        let bytes = exports.flatMap { $0 }
        #expect(!exports.isEmpty, "no OTLP export arrived (\(collector.requests) requests)")
        #expect(String(decoding: exports.first ?? [], as: UTF8.self).lowercased().contains("content-type: application/x-protobuf"))
        for name in ["POST /v1/search", "body receive", "decode and fingerprint", "index search", "ranking", "entity reads"] {
            #expect(bytes.firstRange(of: Array(name.utf8)) != nil, "span \(name) not exported")
        }
        // The caller's trace id, as the 16 raw bytes OTLP carries.
        let rawTraceID = stride(from: 0, to: traceID.count, by: 2).map {
            UInt8(traceID[traceID.index(traceID.startIndex, offsetBy: $0)...].prefix(2), radix: 16)!
        }
        #expect(bytes.firstRange(of: rawTraceID) != nil, "the spans are not in the caller's trace")
    }

    @Test func anEndpointThatIsNotAnHTTPURLIsOneErrorLineAndExitStatus1() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GlimpseExecutable.path))
        process.arguments = ["serve", "--db", GlimpseExecutable.testdata("nonexistent-never.sqlite"), "--port", "0",
                             "--otel-endpoint", "ftp://collector"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("Usage:") && !$0.hasPrefix("  See ") && !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].contains("--otel-endpoint 'ftp://collector'"), "\(text)")
    }
}
