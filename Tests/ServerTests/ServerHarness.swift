import Catalog
import Fingerprints
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import CatalogStores
import Search
import Server
import SQLiteStore
import ServiceLifecycle
import Testing

/// Real servers for the tests: the sample catalog indexed from `testdata/catalog`, the
/// real Hummingbird server on an ephemeral loopback port, and a real HTTP client.
enum Harness {
    /// The repository root (from this file's path).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path inside `testdata/`.
    static func testdata(_ relative: String) -> String { root.appendingPathComponent("testdata/\(relative)").path }

    /// The screenshot whose region shows Hurricane Ridge.
    static let screenshot = testdata("samples/screenshot-hurricane-ridge.png")
    /// Its region around the photo.
    static let screenshotRegion = "4,211,712,332"

    /// The sample catalog, indexed once per test process (read-only tests share it).
    static let sharedCatalog = Task<String, any Error> { try await newCatalog() }

    /// A private copy of the sample catalog (for tests that change it).
    static func newCatalog() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("catalog.sqlite").path
        let store = try SQLiteEntityStore(path: path)
        let report = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(ManifestCatalogSource(manifestPath: testdata("catalog/manifest.json")))
        #expect(report.failed.isEmpty)
        return path
    }

    /// Starts a server on `catalog` and waits until it listens and its index is loaded.
    static func start(catalog: String, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> RunningServer {
        var configuration = ServerConfiguration(port: 0, catalog: catalog)
        configuration.reloadPollMilliseconds = 50
        // The deadline covers decoding, which takes seconds when the whole suite runs in
        // parallel on two cores: tests that want complete pages must not depend on timing
        // (the deadline's own tests pass deadline_ms).
        configuration.defaultDeadlineMilliseconds = 30_000
        configure(&configuration)
        var logger = Logger(label: "glimpse.serve.test")
        logger.logLevel = .warning
        // Read-write: the admin tests remove and undo through the server.
        let store = try await CatalogStores.open(CatalogLocation(catalog), mode: .readWrite)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let (application, state) = GlimpseServer.makeApplication(configuration: configuration, store: store, logger: logger) { port in
            portContinuation.yield(port)
        }
        let group = ServiceGroup(services: [application], gracefulShutdownSignals: [], logger: logger)
        let task = Task { try await group.run() }
        var port = 0
        for await bound in ports {
            port = bound
            break
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while state.holder.index == nil && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(state.holder.index != nil, "the index loads at start-up")
        return RunningServer(port: port, state: state, group: group, task: task)
    }
}

/// One server running in this process.
struct RunningServer: Sendable {
    let port: Int
    let state: ServerState
    let group: ServiceGroup
    let task: Task<Void, any Error>

    /// One answer, with its body as bytes.
    struct Answer: Sendable {
        var status: Int
        var headers: HTTPFields
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as a JSON object.
        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any], "a JSON object: \(text)")
        }
        /// The `{"error", "message"}` body's code (nil when it is not one).
        var errorCode: String? { (try? WireJSON.decode(ErrorBody.self, from: body))?.error }
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
    }

    /// Sends one request on a new connection with a real HTTP/1.1 client.
    func request(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: [UInt8]? = nil) async throws -> Answer {
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let response = try await client.execute(.init(uri, method: method, authority: "127.0.0.1:\(port)", headers: headers, body: body.map { ByteBuffer(bytes: $0) }))
            return Answer(status: response.status.code, headers: response.headers, body: response.body.map { Array($0.readableBytesView) } ?? [])
        }
    }

    /// `POST /v1/search` with a file's bytes.
    func search(file: String, query: String = "") async throws -> Answer {
        try await request(.post, "/v1/search" + (query.isEmpty ? "" : "?" + query), body: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    /// Graceful shutdown, then waits for the server to stop.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

/// A raw TCP connection to the server, for what an ordinary client cannot do: send a
/// body slowly, in chunks, without a length, and hold a request open.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Writes all of `bytes`; false when the peer closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// The first line of an interim (1xx) answer, reading exactly up to its blank line so
    /// that the final answer stays unread. Blocks the calling thread (20 s at most).
    func readLine() -> String? {
        var data: [UInt8] = []
        var byte: UInt8 = 0
        while !data.suffix(4).elementsEqual([13, 10, 13, 10]) {
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            data.append(byte)
        }
        return String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n").first
    }

    /// ``readResponse()`` on a thread of its own: a blocking `recv` must not hold one of
    /// the few cooperative threads the in-process servers need to answer.
    func response() async -> (status: Int, text: String) {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: self.readResponse()) }
            thread.start()
        }
    }

    /// Reads until the peer closes or the headers and `Content-Length` body arrived;
    /// returns the status code and the raw text. Blocks the calling thread.
    func readResponse() -> (status: Int, text: String) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += buffer[0..<n]
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                   let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
                   data.count - text.utf8.distance(from: text.utf8.startIndex, to: end.upperBound.samePosition(in: text.utf8)!) >= length {
                    break
                }
            }
        }
        let text = String(decoding: data, as: UTF8.self)
        let status = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (status, text)
    }
}
