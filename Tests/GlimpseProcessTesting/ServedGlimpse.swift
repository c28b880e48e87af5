import Foundation

/// A real `glimpse serve` process on a free loopback port, for tests of what talks to it over
/// HTTP; never shipped.
public final class ServedGlimpse: @unchecked Sendable {
    /// The running process.
    public let process = Process()
    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts `glimpse serve --db catalog --port 0 extra…` (with `environment` added to this
    /// process's), reads the address it logs and waits
    /// (up to 60 s) until `/readyz` answers 200.
    /// - Throws: ``GlimpseExecutable/Missing``, or ``GlimpseExecutable/RunFailed`` with what it
    ///   printed when it does not start or get ready.
    /// - Complexity: the server's start-up.
    public init(catalog: String, extra: [String] = [], environment: [String: String] = [:]) async throws {
        guard let path = GlimpseExecutable.path else { throw GlimpseExecutable.Missing() }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["serve", "--db", catalog, "--port", "0", "--log-level", "notice"] + extra
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        var found: Int?
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, found == nil {
            let data = errors.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            if let range = seen.range(of: #"address=http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                found = Int(seen[range].split(separator: ":").last ?? "")
            }
        }
        guard let found else {
            process.terminate()
            process.waitUntilExit()
            throw GlimpseExecutable.RunFailed(description: "glimpse serve did not report its address: \(seen)")
        }
        port = found
        // Keep draining stderr so the server never blocks on a full pipe.
        errors.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
        for _ in 0..<1200 {
            if let ready = try? await get("/readyz"), ready.status == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        stop()
        throw GlimpseExecutable.RunFailed(description: "glimpse serve on port \(port) never became ready")
    }

    /// `GET path` on a new connection: the status and the whole raw answer.
    /// - Complexity: one request.
    public func get(_ path: String) async throws -> (status: Int, text: String) {
        let probe = try RawConnection(port: port)
        probe.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return await probe.response()
    }

    /// A number from the server's `/metrics` (the first sample whose line starts with
    /// `prefix`), or 0 when absent.
    /// - Complexity: one request.
    public func metric(_ prefix: String) async throws -> Double {
        let text = try await get("/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }
            .flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
    }

    /// Stops the server (SIGTERM) and waits for it to exit.
    /// - Complexity: the server's graceful shutdown.
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }
}
