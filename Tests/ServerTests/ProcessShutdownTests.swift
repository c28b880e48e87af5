import Foundation
import GlimpseProcessTesting
import Testing

/// A real `glimpse serve` process: it drains an in-flight request on SIGTERM and exits 0.
@Suite struct ProcessShutdownTests {
    /// Starts `glimpse serve` on a free port and returns it with the port it printed.
    static func serve(_ catalog: String, extra: [String] = []) throws -> (Process, Int, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GlimpseExecutable.path, "the glimpse binary is built (swift build)"))
        process.arguments = ["serve", "--db", catalog, "--port", "0"] + extra
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            if let range = seen.range(of: #"address=http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                let port = Int(seen[range].split(separator: ":").last ?? "") ?? 0
                return (process, port, errors)
            }
        }
        process.terminate()
        Issue.record("glimpse serve did not report its address: \(seen)")
        throw CancellationError()
    }

    /// Whether `/readyz` answers 200 within about 15 s.
    static func becomesReady(port: Int) async throws -> Bool {
        for _ in 0..<300 {
            let probe = try RawConnection(port: port)
            probe.send("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if await probe.response().status == 200 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Waits (up to about 15 s) until `/metrics` shows at least `bytes` of request bodies
    /// held: the event that a request's handler has started reading its body.
    static func bodyBytesHeld(atLeast bytes: Int, port: Int) async throws -> Bool {
        for _ in 0..<300 {
            let probe = try RawConnection(port: port)
            probe.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let text = await probe.response().text
            let held = text.split(separator: "\n").first { $0.hasPrefix("glimpse_request_body_bytes_held ") }
                .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            if held >= Double(bytes) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Waits (up to about 15 s) until the server refuses new connections: the event that
    /// its graceful shutdown has begun (the listener closes first).
    static func refusesConnections(port: Int) async throws -> Bool {
        for _ in 0..<300 {
            guard (try? RawConnection(port: port)) != nil else { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test func sigtermDrainsTheInFlightRequestAndExits0() async throws {
        let (process, port, errors) = try Self.serve(try await Harness.sharedCatalog.value)
        #expect(try await Self.becomesReady(port: port))
        // A request in flight (its body still arriving) when SIGTERM comes…
        let image = Array(try Data(contentsOf: URL(fileURLWithPath: Harness.screenshot)))
        let connection = try RawConnection(port: port)
        connection.send("POST /v1/search?region=\(Harness.screenshotRegion) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(image.count)\r\n\r\n")
        connection.send(Array(image.prefix(1000)))
        #expect(try await Self.bodyBytesHeld(atLeast: image.count, port: port), "the search never started reading its body")
        kill(process.processIdentifier, SIGTERM)
        #expect(try await Self.refusesConnections(port: port), "the server kept accepting connections after SIGTERM")
        // …is answered in full,
        connection.send(Array(image.dropFirst(1000)))
        let response = await connection.response()
        #expect(response.status == 200)
        #expect(response.text.contains("landmarks/hurricane-ridge"))
        // and the process exits 0 within the grace period.
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        if process.isRunning { process.interrupt() }
        #expect(process.terminationStatus == 0, "\(String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self))")
    }

    @Test func aRequestOutlivingTheGracePeriodIsCancelledAndTheExitIsStill0() async throws {
        let (process, port, errors) = try Self.serve(try await Harness.sharedCatalog.value, extra: ["--shutdown-grace", "1"])
        #expect(try await Self.becomesReady(port: port))
        // A body that never finishes arriving holds its request past the 1 s grace period.
        let connection = try RawConnection(port: port)
        connection.send("POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
        connection.send(Array(repeating: UInt8(0xFF), count: 10))
        #expect(try await Self.bodyBytesHeld(atLeast: 100_000, port: port), "the search never started reading its body")
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        if process.isRunning { process.interrupt() }
        let log = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(log)")
        #expect(Date().timeIntervalSince(signalled) < 6, "the exit comes within the grace period and a small constant")
        #expect(!log.contains("CancellationError"), "\(log)")
    }

    @Test func aMissingCatalogIsOneErrorLineAndExitStatus1() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(GlimpseExecutable.path))
        process.arguments = ["serve", "--db", "/nonexistent/glimpse.sqlite", "--port", "0"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("no catalog database here"))
    }
}
