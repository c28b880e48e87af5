import ArgumentParser
import Catalog
import Foundation
import PixelBuffers
import Logging
import Server

/// `glimpse serve`: the HTTP search backend (parsing only; the server is the Server module).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the catalog over HTTP: image search, fingerprint lookup, entities, exports.",
        discussion: """
            Loads the visual index once, answers the API described by GET /openapi.yaml, \
            and rebuilds the index off to the side when the catalog changes (another \
            process runs 'glimpse index' or 'glimpse catalog remove'; a PostgreSQL catalog \
            announces changes at once, every catalog is also polled). The catalog is opened \
            read-only unless --admin-token-file enables the admin endpoints. Binds 127.0.0.1 \
            unless --host says otherwise. SIGTERM or SIGINT: stop accepting, let in-flight \
            requests finish within --shutdown-grace seconds, exit 0. --otel-endpoint (or \
            OTEL_EXPORTER_OTLP_ENDPOINT) exports a trace of every request over OTLP/HTTP.

            Example:
              glimpse serve --db glimpse.sqlite --port 8080
              glimpse serve --db postgres://glimpse@127.0.0.1:5432/glimpse --port 8080
              curl --data-binary @testdata/samples/screenshot-hurricane-ridge.png \\
                'http://127.0.0.1:8080/v1/search?region=4,211,712,332'
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port (0: any free port).")
    var port = 8080

    @Option(help: ArgumentHelp("A file holding the bearer token that enables the admin endpoints (remove, undo).", valueName: "path"))
    var adminTokenFile: String?

    @Option(help: "Largest request body in bytes.")
    var maxBodyBytes = ServerConfiguration().maxBodyBytes

    @Option(help: "Largest image in pixels (width × height, checked from its header).")
    var maxPixels = ServerConfiguration().maxPixels

    @Option(help: "Searches at once; more are answered 429 at once.")
    var maxConcurrentSearches = ServerConfiguration().maxConcurrentSearches

    @Option(help: "Seconds a request body may pause, and after which it must average --min-body-rate (else 408).")
    var bodyStallSeconds = UploadPolicy().stallSeconds

    @Option(help: "Least average request-body rate in bytes per second, once --body-stall-seconds have passed.")
    var minBodyRate = UploadPolicy().minimumBytesPerSecond

    @Option(help: "Most request-body bytes held by all requests at once; more are answered 429.")
    var maxBufferedBodyBytes = UploadPolicy().bufferedBytesBudget

    @Option(help: "Seconds an idle connection is kept open.")
    var idleTimeout = ServerConfiguration().idleTimeoutSeconds

    @Option(help: "Seconds in-flight requests get to finish on SIGTERM/SIGINT.")
    var shutdownGrace = ServerConfiguration().shutdownGraceSeconds

    @Option(help: "Milliseconds between two checks of the catalog version.")
    var reloadPollMs = ServerConfiguration().reloadPollMilliseconds

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Option(name: .customLong("allowed-host"), help: ArgumentHelp(
        "A host name requests may carry in Host (repeat for several). Bound to a loopback address, only loopback names are accepted otherwise; bound elsewhere, any name is unless this is given.",
        valueName: "name"))
    var allowedHosts: [String] = []

    @Option(help: ArgumentHelp(
        "Export request traces over OTLP/HTTP to this collector (base URL, e.g. http://127.0.0.1:4318; traces go to /v1/traces). Without it, OTEL_EXPORTER_OTLP_ENDPOINT is honoured; with neither, nothing is traced.",
        valueName: "url"))
    var otelEndpoint: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0…65535") }
        guard maxBodyBytes > 0, maxPixels > 0, maxConcurrentSearches > 0, idleTimeout > 0, shutdownGrace > 0, reloadPollMs > 0,
              bodyStallSeconds > 0, minBodyRate > 0, maxBufferedBodyBytes >= maxBodyBytes else {
            throw ValidationError("limits and timeouts must be positive, and --max-buffered-body-bytes at least --max-body-bytes")
        }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
        if let otelEndpoint, !TraceExport.isCollectorURL(otelEndpoint) {
            throw ValidationError("--otel-endpoint '\(otelEndpoint)' is not an http:// or https:// URL with a host (a collector's OTLP/HTTP base, e.g. http://127.0.0.1:4318)")
        }
    }

    func run() async throws {
        var adminToken: String?
        if let adminTokenFile {
            // FileBytes refuses a FIFO or a folder and names the OS reason (permission denied…).
            let data: [UInt8]
            do { data = try FileBytes.contents(ofFile: adminTokenFile) } catch {
                if case .unreadableFile(_, let reason) = error { throw failure("\(adminTokenFile): cannot read the admin token file: \(reason)") }
                throw failure("\(adminTokenFile): the admin token file is empty")
            }
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard token.utf8.count >= 16, !token.contains(where: \.isWhitespace) else {
                throw failure("\(adminTokenFile): the admin token must be one word of at least 16 characters")
            }
            adminToken = token
        }
        // Only the admin endpoints (remove, undo) write; without them the catalog is read-only.
        let store = adminToken == nil ? try await database.openExisting() : try await database.openForChange()
        var configuration = ServerConfiguration(
            host: host, port: port, catalog: store.location, adminToken: adminToken, maxBodyBytes: maxBodyBytes, maxPixels: maxPixels,
            maxConcurrentSearches: maxConcurrentSearches, idleTimeoutSeconds: idleTimeout, reloadPollMilliseconds: reloadPollMs,
            shutdownGraceSeconds: shutdownGrace, snapshotPath: database.snapshotPath)
        configuration.allowedHosts = allowedHosts
        configuration.upload = UploadPolicy(stallSeconds: bodyStallSeconds, minimumBytesPerSecond: minBodyRate,
                                            bufferedBytesBudget: maxBufferedBodyBytes)
        let (tracing, exporter) = try TraceExport.make(endpoint: otelEndpoint, environment: ProcessInfo.processInfo.environment)
        configuration.tracing = tracing
        var logger = Logger(label: "glimpse.serve")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        do {
            try await GlimpseServer.run(configuration: configuration, store: store, logger: logger, companions: exporter.map { [$0] } ?? [])
        } catch let error as ServerStartError {
            throw failure(error.description)
        }
    }
}
