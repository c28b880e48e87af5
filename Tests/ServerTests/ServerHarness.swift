import Catalog
import Fingerprints
import Foundation
import GlimpseAPITypes
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
        var errorCode: String? { (try? JSONDecoder().decode(Components.Schemas.ErrorBody.self, from: Data(body)))?.error }
        func header(_ name: String) -> String? { HTTPField.Name(name).flatMap { headers[$0] } }
    }

    /// How long the client waits for an answer: longer than the server's own 30 s default
    /// deadline (see ``Harness/start(catalog:configure:)``), so that a search slowed by the
    /// whole suite running in parallel on two cores is answered by the server, not cut off
    /// by the client (the test client's own default is 15 s; a CI run once hit it).
    static let clientTimeout: Duration = .seconds(90)

    /// Sends one request on a new connection with a real HTTP/1.1 client.
    func request(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: [UInt8]? = nil) async throws -> Answer {
        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: Self.clientTimeout)) { client in
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
