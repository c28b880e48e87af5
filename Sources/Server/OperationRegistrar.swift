import GlimpseAPITypes
import Hummingbird
import HTTPTypes
import OpenAPIRuntime

/// Where each operation of the generated interface is registered: the transport the
/// generated `registerHandlers(on:)` hands its operations to, a Hummingbird route per
/// operation. Operations served by plain routes are skipped; the admin operations go on a
/// group behind ``AdminAuthMiddleware``; operations with a JSON body go behind a
/// ``JSONBodyMiddleware`` with their own size limit.
///
/// It does what swift-openapi-hummingbird's `Router` transport does, with one difference:
/// an answer is sent as one buffer (every answer of the generated operations is already in
/// memory) rather than through a streamed body writer, which costs a task hop per answer
/// and let a pipelined request's parser error close the connection before the answer before
/// it was written.
struct OperationRegistrar: ServerTransport {
    /// Operations that plain routes serve (see ``GlimpseAPIHandler``), as `METHOD path`.
    static let plainRoutes: Set<String> = ["POST /v1/search", "GET /metrics", "GET /"]
    /// Largest JSON body of each operation that takes one, in bytes.
    static let jsonBodyLimits: [String: Int] = ["POST /v1/search/fingerprint": 64 << 10, "POST /v1/admin/remove": 16 << 10]

    /// The generated code's settings: every JSON answer with sorted keys, compact, slashes
    /// as they are (the wire format's golden files, checked in ServerTests).
    static let configuration = Configuration(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])

    let router: Router<GlimpseRequestContext>
    let state: ServerState

    /// Registers every operation of `handler` on `router` (once, when the router is built).
    /// - Complexity: O(operations).
    static func register(_ handler: GlimpseAPIHandler, on router: Router<GlimpseRequestContext>) {
        let registrar = OperationRegistrar(router: router, state: handler.state)
        // Registration cannot fail: the registrar never throws and the spec's paths are fixed.
        try? handler.registerHandlers(on: registrar, configuration: configuration)
    }

    /// Registers one operation (called by the generated `registerHandlers`).
    /// - Complexity: O(1).
    func register(_ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
                  method: HTTPRequest.Method, path: String) throws {
        let key = "\(method.rawValue) \(path)"
        guard !Self.plainRoutes.contains(key) else { return }
        var group = router.group()
        if path.hasPrefix("/v1/admin/") {
            group = group.add(middleware: AdminAuthMiddleware(token: state.configuration.adminToken))
        }
        if let limit = Self.jsonBodyLimits[key] {
            group = group.add(middleware: JSONBodyMiddleware(limit: limit, upload: state.configuration.upload, budget: state.bodyBudget, watchdog: state.bodyWatchdog))
        }
        group.on(RouterPath(path), method: method) { request, context in
            // A JSON body is already in memory (JSONBodyMiddleware); a GET or HEAD has none. Only
            // bytes in memory are handed on: no per-request stream adapter.
            let body = context.collectedBody.map { HTTPBody(Array($0.readableBytesView)) }
            let parameters = [String: Substring](context.parameters.map { (String($0.0), $0.1) }) { first, _ in first }
            let (head, answer) = try await handler(Self.operationHead(request.head, jsonBody: body != nil), body, ServerRequestMetadata(pathParameters: parameters))
            var bytes = ByteBuffer()
            if let answer {
                for try await chunk in answer { bytes.writeBytes(chunk) }
            }
            return Response(status: head.status, headers: head.headerFields, body: .init(byteBuffer: bytes))
        }
    }

    /// The request head the generated code reads: its path cut to the query (`?…`, or none),
    /// since path parameters come in the metadata and the generated code looks for the query
    /// once per query parameter, scanning the whole path each time; and, for a JSON body
    /// (``JSONBodyMiddleware``: JSON whatever its declared type), no `Content-Type`, so the
    /// operation's one content type is chosen without parsing one. Every other header stays.
    /// - Complexity: O(path length + header fields).
    static func operationHead(_ head: HTTPRequest, jsonBody: Bool) -> HTTPRequest {
        var head = head
        if let path = head.path {
            let utf8 = path.utf8, end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
            head.path = utf8[..<end].firstIndex(of: UInt8(ascii: "?")).map { String(path[$0..<end]) }
        }
        if jsonBody { head.headerFields[.contentType] = nil }
        return head
    }
}
