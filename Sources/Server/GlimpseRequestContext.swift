import Hummingbird

/// The per-request context: Hummingbird's core storage plus the request id that the log
/// line and the `X-Request-ID` response header carry.
public struct GlimpseRequestContext: RequestContext {
    /// Hummingbird's storage (logger, endpoint path, parameters).
    public var coreContext: CoreRequestContextStorage
    /// The client's `X-Request-ID` when it sent a sane one, otherwise a new random id.
    public var requestID: String
    /// The request's body when a middleware read it whole under its route's limit
    /// (``JSONBodyMiddleware``); nil otherwise.
    public var collectedBody: ByteBuffer?

    /// Creates the context of a new request.
    public init(source: Source) {
        coreContext = .init(source: source)
        requestID = ""
    }

    /// Bodies are read by the handlers themselves with their own limits.
    public var maxUploadSize: Int { 64 << 10 }

    /// JSON answers are encoded through the wire-format home (``WireResponseEncoder``).
    public var responseEncoder: WireResponseEncoder { WireResponseEncoder() }

    /// `value` as a JSON answer through ``responseEncoder``, with `status` and extra `headers`.
    /// - Complexity: O(size of the value).
    public func json(_ value: some Encodable, for request: Request, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var response = responseEncoder.encode(value, from: request, context: self)
        response.status = status
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}
