import ArgumentParser
import Catalog
import Foundation
import PixelBuffers
import Logging
import Search
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
            OTEL_EXPORTER_OTLP_ENDPOINT) exports a trace of every request over OTLP/HTTP.             With --partition i/P (a PostgreSQL catalog of P partitions) the replica loads             that partition only, registers itself in the catalog, answers the other             replicas' internal requests (--cluster-token-file), and answers every search             by asking one replica of each other partition and merging their matches;             with --snapshot it saves that partition's index there and maps it at its next             start (a path per partition).

            Example:
              glimpse serve --db glimpse.sqlite --port 8080
              glimpse serve --db postgres://glimpse@127.0.0.1:5432/glimpse --port 8080
              glimpse serve --db postgres://glimpse@127.0.0.1:5432/glimpse --port 8081 \\
                --partition 0/4 --cluster-token-file cluster.token
              curl --data-binary @testdata/samples/screenshot-hurricane-ridge.png \\
                'http://127.0.0.1:8080/v1/search?region=4,211,712,332'
            """
    )

    @OptionGroup var database: DatabaseOption

    @OptionGroup var snapshot: SnapshotOption

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

    @Option(help: ArgumentHelp(
        "Serve partition i of a PostgreSQL catalog of P partitions, merging the other partitions' matches from their replicas.",
        valueName: "i/P"))
    var partition: String?

    @Option(help: ArgumentHelp("A file holding the token every replica of the cluster shares (needed with --partition).", valueName: "path"))
    var clusterTokenFile: String?

    @Option(help: ArgumentHelp(
        "The base URL other replicas reach this one at (default: http://<host>:<port>; needed when --host is a wildcard).",
        valueName: "url"))
    var advertiseURL: String?

    @Option(help: "Milliseconds one replica of another partition gets before its twin is asked.")
    var partitionTimeoutMs = 1000

    @Option(name: .customLong("first-stage"), help: ArgumentHelp(
        "automatic (default): an index built from the catalog gets the first stage from \(FirstStagePolicy.automaticMinimumViews) views, where searching through it is faster; always: whatever its size. A mapped snapshot keeps the first stage 'glimpse index' wrote.",
        valueName: "automatic|always"))
    var firstStage: FirstStagePolicy = .automatic

    /// `--partition`, parsed.
    var catalogPartition: CatalogPartition? {
        get throws {
            guard let partition else { return nil }
            do { return try CatalogPartition(parsing: partition) } catch { throw ValidationError("--partition: \(error.description)") }
        }
    }

    func validate() throws {
        if let partition = try catalogPartition, partition.count > 1 {
            guard clusterTokenFile != nil else { throw ValidationError("--partition \(partition) needs --cluster-token-file (the token the replicas share)") }
            guard advertiseURL != nil || !ClusterConfiguration.isWildcard(host) else {
                throw ValidationError("--host \(host) is not an address other replicas can reach: give --advertise-url")
            }
        }
        if let advertiseURL {
            guard let url = URLComponents(string: advertiseURL), ["http"].contains(url.scheme), url.host?.isEmpty == false, url.path.isEmpty || url.path == "/" else {
                throw ValidationError("--advertise-url '\(advertiseURL)' is not an http:// base URL (e.g. http://10.0.0.5:8081)")
            }
        }
        guard [.automatic, .always].contains(firstStage) else {
            throw ValidationError("--first-stage \(firstStage.rawValue): a server builds its index as automatic or always; 'glimpse index --first-stage' keeps or removes a snapshot's")
        }
        guard partitionTimeoutMs > 0 else { throw ValidationError("--partition-timeout-ms must be positive") }
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
        let adminToken = try adminTokenFile.map { try Self.token(in: $0, what: "admin token") }
        let partition = try catalogPartition
        var cluster: ClusterConfiguration?
        if let partition, partition.count > 1, let clusterTokenFile {
            cluster = ClusterConfiguration(partition: partition, token: try Self.token(in: clusterTokenFile, what: "cluster token"),
                                           advertisedAddress: advertiseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 })
            cluster?.attemptBudget = .milliseconds(partitionTimeoutMs)
        }
        // Only the admin endpoints (remove, undo) write; without them the catalog is read-only
        // (a partition replica's heartbeat row apart).
        let store = adminToken == nil ? try await database.openExisting(partition: partition)
            : try await database.openForChange(partition: partition)
        var configuration = ServerConfiguration(
            host: host, port: port, catalog: store.location, adminToken: adminToken, maxBodyBytes: maxBodyBytes, maxPixels: maxPixels,
            maxConcurrentSearches: maxConcurrentSearches, idleTimeoutSeconds: idleTimeout, reloadPollMilliseconds: reloadPollMs,
            shutdownGraceSeconds: shutdownGrace, snapshotPath: snapshot.path(for: database))
        configuration.allowedHosts = allowedHosts
        configuration.cluster = cluster
        configuration.firstStage = firstStage
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

extension ServeCommand {
    /// The token in `path`: one word of at least 16 characters (FileBytes refuses a FIFO or
    /// a folder and names the OS reason, permission denied…).
    static func token(in path: String, what: String) throws -> String {
        let data: [UInt8]
        do { data = try FileBytes.contents(ofFile: path) } catch {
            if case .unreadableFile(_, let reason) = error { throw failure("\(path): cannot read the \(what) file: \(reason)") }
            throw failure("\(path): the \(what) file is empty")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.utf8.count >= 16, !token.contains(where: \.isWhitespace) else {
            throw failure("\(path): the \(what) must be one word of at least 16 characters")
        }
        return token
    }
}
