import Catalog
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
#if canImport(Glibc)
import Glibc
#endif
import ServiceLifecycle
import Synchronization
import UnixSignals

/// `glimpse serve`: the HTTP API on Hummingbird 2. Builds the application (routes,
/// middlewares, the index reloader service) and runs it under swift-service-lifecycle:
/// SIGTERM/SIGINT stop accepting connections, in-flight requests get
/// ``ServerConfiguration/shutdownGraceSeconds`` to finish, then the process exits 0.
public enum GlimpseServer {
    /// The router with every route and the middlewares (outermost first: request log and
    /// metrics, JSON errors, the `Host` check of ``HostPolicy``). Every `GET` route also
    /// answers `HEAD` (the same headers, no body); a known path asked with a method it does
    /// not take gets 405 with `Allow`.
    public static func makeRouter(state: ServerState) -> Router<GlimpseRequestContext> {
        let router = Router(context: GlimpseRequestContext.self, options: .autoGenerateHeadEndpoints)
        let routes = RouteTable()
        router.add(middleware: RequestLogMiddleware(logger: state.logger, metrics: state.metrics))
        router.add(middleware: TraceMiddleware(tracing: state.configuration.tracing))
        router.add(middleware: ErrorMiddleware(routes: routes, metrics: state.metrics))
        router.add(middleware: HostCheckMiddleware(policy: HostPolicy(boundHost: state.configuration.host, extra: state.configuration.allowedHosts)))
        GlimpseAPI.addRoutes(to: router, state: state)
        routes.record(router)
        return router
    }

    /// The application over `store`: the index is loaded by its reloader service when it
    /// starts (``ServerState/holder`` is empty, `/readyz` 503, until then).
    ///
    /// Catalog changes are noticed by a `CatalogChangeWatcher`: the store's push
    /// notifications when it has them (PostgreSQL LISTEN/NOTIFY), and a poll of the version
    /// every ``ServerConfiguration/reloadPollMilliseconds`` as the fallback.
    ///
    /// - Parameters:
    ///   - onServerRunning: called with the bound port once the server listens.
    public static func makeApplication(
        configuration: ServerConfiguration, store: any EntityStore, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> (application: some ApplicationProtocol, state: ServerState) {
        let metrics = ServerMetrics()
        let holder = IndexHolder()
        let health = CatalogHealth()
        // Requests read entities through a memory of what they read, so a replica keeps
        // answering while the database is away; the reloader reads the store itself.
        let served = LastKnownEntityStore(store, health: health)
        let watcher = CatalogChangeWatcher(store: store, pollInterval: .milliseconds(max(10, configuration.reloadPollMilliseconds)))
        let fanOut = configuration.cluster.map { PartitionFanOut(configuration: $0, metrics: metrics) }
        let reloader = IndexReloader(store: store, entityStore: served, holder: holder, health: health, watcher: watcher,
                                     rankingCacheCapacity: configuration.rankingCacheCapacity, snapshotPath: configuration.snapshotPath,
                                     firstStage: configuration.firstStage, fanOut: fanOut, metrics: metrics, logger: logger)
        var services: [any Service] = [reloader]
        if let fanOut {
            if let directory = store as? any ClusterDirectory {
                services.append(ClusterHeartbeat(directory: directory, fanOut: fanOut, holder: holder, logger: logger))
            } else {
                logger.error("the catalog keeps no cluster membership (not PostgreSQL): no other partition can be reached")
            }
        }
        let state = ServerState(store: served, holder: holder, health: health, configuration: configuration,
                                slots: SearchSlots(capacity: configuration.maxConcurrentSearches),
                                partitionSlots: SearchSlots(capacity: configuration.maxConcurrentSearches), fanOut: fanOut,
                                bodyBudget: BodyBudget(capacity: configuration.upload.bufferedBytesBudget, metrics: metrics), metrics: metrics,
                                reloader: reloader, logger: logger)
        let application = Application(
            router: makeRouter(state: state),
            server: HTTPServerBuilder { responder in
                GlimpseHTTP1Channel(responder: responder, idleTimeout: .seconds(Int64(max(1, configuration.idleTimeoutSeconds))),
                                    maxBodyBytes: configuration.maxBodyBytes) { answered in
                    metrics.recordRequest(method: "-", route: "unparsed", status: answered.status, duration: .zero)
                    metrics.recordRejection(answered.code)
                    logger.info("request", metadata: [
                        "method": "-", "route": "unparsed", "status": "\(answered.status)", "request_id": "\(answered.requestID)",
                        "error": "\(answered.code)", "parser": "\(answered.detail)",
                    ])
                }
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "glimpse",
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                if let fanOut {
                    let address = fanOut.configuration.advertisedAddress ?? "http://\(ClusterConfiguration.urlHost(configuration.host)):\(port)"
                    fanOut.ownAddress.withLock { $0 = address }
                }
                await onServerRunning(port)
            },
            logger: logger)
        return (application, state)
    }

    /// Serves `store` (opened by the caller through `CatalogStores.open`: read-only unless
    /// the admin endpoints are enabled) until SIGTERM or SIGINT, then drains within the
    /// grace period and returns.
    ///
    /// - Throws: errors binding the address.
    ///
    /// - Throws: ``ServerStartError/cannotListen(host:port:reason:)`` when the address
    ///   cannot be bound; whatever the service group throws otherwise, except the
    ///   cancellation of requests still running when the grace period after a signal ends
    ///   (logged; a clean exit).
    ///
    /// `companions` run beside the server and stop after it (a trace exporter, which then
    /// still exports the spans of requests that drained).
    public static func run(configuration: ServerConfiguration, store: any EntityStore, logger: Logger,
                           companions: [any Service] = []) async throws {
        let (application, state) = makeApplication(configuration: configuration, store: store, logger: logger) { port in
            logger.notice("glimpse serve listening", metadata: ["address": "http://\(configuration.host):\(port)", "catalog": "\(configuration.catalog)"])
        }
        var groupConfiguration = ServiceGroupConfiguration(services: companions + [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(max(1, configuration.shutdownGraceSeconds))
        do {
            try await ServiceGroup(configuration: groupConfiguration).run()
            // The fan-out's HTTP client is closed once every request has drained.
            await state.fanOut?.shutdown()
        } catch let error as IOError where error.errnoCode == EADDRINUSE || error.errnoCode == EADDRNOTAVAIL || error.errnoCode == EACCES {
            await state.fanOut?.shutdown()
            throw ServerStartError.cannotListen(host: configuration.host, port: configuration.port,
                                                reason: String(cString: strerror(error.errnoCode)))
        } catch is CancellationError {
            await state.fanOut?.shutdown()
            // The grace period after SIGTERM/SIGINT ran out and the service group cancelled
            // what was still running: the stop asked for happened, so it is a clean exit.
            logger.notice("shutdown grace period over; requests still running were cancelled", metadata: [
                "grace_seconds": "\(configuration.shutdownGraceSeconds)",
            ])
        }
    }
}

