import Foundation
import OTel
import Server
import ServiceLifecycle

/// Where `glimpse serve` exports its request traces: OTLP over HTTP (protobuf) to
/// `--otel-endpoint`, or to the standard `OTEL_EXPORTER_OTLP_ENDPOINT` (and the other `OTEL_*`
/// variables swift-otel reads); neither set: no tracer, no exporter, spans are no-ops.
enum TraceExport {
    /// Whether `text` is an http(s) URL with a host, as a collector's base URL must be.
    /// - Complexity: O(length).
    static func isCollectorURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else { return false }
        return (scheme == "http" || scheme == "https") && url.host != nil
    }

    /// The tracing for the server and the exporter service to run beside it, or
    /// (``RequestTracing/disabled``, nil) when no endpoint is set.
    /// - Parameters:
    ///   - endpoint: `--otel-endpoint`: the collector's base URL (`http://127.0.0.1:4318`);
    ///     traces go to its `/v1/traces`.
    ///   - environment: the process environment.
    /// - Throws: `CommandFailure` naming the endpoint when it is not an http(s) URL, or what
    ///   swift-otel refused in the configuration.
    /// - Complexity: O(1).
    static func make(endpoint: String?, environment: [String: String]) throws -> (RequestTracing, (any Service)?) {
        let fromEnvironment = environment["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]
        guard endpoint != nil || fromEnvironment != nil else { return (.disabled, nil) }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "glimpse"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        configuration.propagators = [.traceContext]
        if let endpoint {
            guard isCollectorURL(endpoint) else {
                throw failure("--otel-endpoint '\(endpoint)' is not an http:// or https:// URL with a host (the collector's OTLP/HTTP base, e.g. http://127.0.0.1:4318)")
            }
            configuration.traces.otlpExporter.endpoint = endpoint.hasSuffix("/") ? endpoint + "v1/traces" : endpoint + "/v1/traces"
        }
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        do {
            let backend = try OTel.makeTracingBackend(configuration: configuration)
            return (RequestTracing(tracer: backend.factory), backend.service)
        } catch {
            throw failure("cannot export traces: \(error)")
        }
    }
}
