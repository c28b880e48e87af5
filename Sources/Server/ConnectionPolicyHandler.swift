import GlimpseAPITypes
import NIOCore
import NIOHTTP1
import Search

/// What HTTP/1 asks of a connection below Hummingbird's routing, where requests are still
/// NIO's `HTTPServerRequestPart`s (Hummingbird converts them to HTTPTypes, which carry no
/// version, and answers a parser error with a bare 400):
///
/// - **HTTP/1.0**: the response says `Connection: close`, keeps the request's version (so
///   a body of unknown length is framed by the close, never chunked) and the connection is
///   closed once it is written;
/// - **`Expect: 100-continue`**: `100 Continue` is sent at once when the declared body fits
///   the body limit (otherwise the route's 413 is the answer); any other expectation is
///   417 `expectation_failed`; an HTTP/1.0 request's expectation is ignored (RFC 9110);
/// - **a response written before its request's body ended** (413, 408, an error before the
///   body was read) says `Connection: close` and the connection closes after it: the rest
///   of the body is never read;
/// - **errors of the HTTP parser** (a URL or header block over the limits, an unknown
///   method, bare LF, control bytes) get the spec's JSON error body like every other error,
///   414 `uri_too_long`, 431 `headers_too_large` or 400 `malformed_request`, with an
///   `X-Request-ID`, a log line and a metric (through `report`), then the connection closes.
///
/// Requests are answered in order, so the per-request facts wait in a FIFO: a pipelined
/// request's head can arrive before the previous response is written.
final class ConnectionPolicyHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A protocol error answered here, for the log and metrics.
    struct ProtocolErrorReport: Sendable {
        /// HTTP status sent.
        var status: Int
        /// Stable error code sent.
        var code: String
        /// The request id sent in `X-Request-ID`.
        var requestID: String
        /// What the parser refused.
        var detail: String
    }

    /// One request whose response is not finished yet.
    private struct Pending {
        var version: HTTPVersion
        var close: Bool
        var bodyComplete = false
    }

    private let maxBodyBytes: Int
    private let tracker: RequestLineTracker
    private let report: @Sendable (ProtocolErrorReport) -> Void
    private var pending: [Pending] = []
    /// The answer to a parser error, waiting for the responses before it.
    private var deferredError: (status: HTTPResponseStatus, code: String, message: String, detail: String)?
    /// Once set, inbound parts are dropped and nothing more is answered.
    private var closing = false

    /// - Parameters:
    ///   - maxBodyBytes: the server's body limit (`100 Continue` is only promised under it).
    ///   - tracker: shared with the ``RequestLineTracker`` before the decoder.
    ///   - report: called once per parser error answered here.
    init(maxBodyBytes: Int, tracker: RequestLineTracker, report: @escaping @Sendable (ProtocolErrorReport) -> Void) {
        self.maxBodyBytes = maxBodyBytes
        self.tracker = tracker
        self.report = report
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            tracker.headArrived()
            let isHTTP10 = head.version.major == 1 && head.version.minor == 0
            var close = isHTTP10 || head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
            if isHTTP10 && !head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
                // Hummingbird ends its request loop on `Connection: close`.
                head.headers.replaceOrAdd(name: "connection", value: "close")
            }
            // RFC 9110 §10.1.1: an HTTP/1.0 request's expectation is ignored.
            let expectations = isHTTP10 ? [] : head.headers[canonicalForm: "expect"].map { $0.lowercased() }
            if !expectations.isEmpty {
                guard expectations.allSatisfy({ $0 == "100-continue" }) else {
                    answerDirectly(context: context, status: .expectationFailed, code: "expectation_failed",
                                   message: "the server cannot meet Expect: \(expectations.joined(separator: ", ")); send the request without it",
                                   detail: "expectation")
                    return
                }
                let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
                if declared <= maxBodyBytes {
                    context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
                } else {
                    close = true
                }
            }
            pending.append(Pending(version: head.version, close: close))
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body(let body):
            context.fireChannelRead(wrapInboundOut(.body(body)))
        case .end(let trailers):
            tracker.requestEnded()
            if let index = pending.firstIndex(where: { !$0.bodyComplete }) { pending[index].bodyComplete = true }
            context.fireChannelRead(wrapInboundOut(.end(trailers)))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            if let first = pending.first, !(100..<200).contains(head.status.code) {
                if !first.bodyComplete { pending[0].close = true }
                if pending[0].close {
                    head.headers.replaceOrAdd(name: "connection", value: "close")
                    head.version = first.version
                }
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body(let body):
            context.write(wrapOutboundOut(.body(body)), promise: promise)
        case .end(let trailers):
            let finished = pending.isEmpty ? nil : pending.removeFirst()
            if let finished, finished.close {
                closing = true
                let lingering = !finished.bodyComplete
                context.writeAndFlush(wrapOutboundOut(.end(trailers)), promise: promise)
                Self.finishConnection(context, lingering: lingering)
            } else {
                context.write(wrapOutboundOut(.end(trailers)), promise: promise)
                if pending.isEmpty, let error = deferredError {
                    deferredError = nil
                    answerDirectly(context: context, status: error.status, code: error.code, message: error.message, detail: error.detail)
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !closing else {
            context.fireErrorCaught(error)
            return
        }
        guard tracker.awaitingHead else {
            // A request already handed on (its body failed to parse): its route answers,
            // and the connection closes after that answer.
            if let index = pending.lastIndex(where: { !$0.bodyComplete }) { pending[index].close = true }
            context.fireErrorCaught(error)
            return
        }
        let (status, code, message) = Self.answer(to: parserError, inRequestLine: tracker.requestLineBytes >= Self.maximumHeaderBytes)
        if pending.isEmpty {
            answerDirectly(context: context, status: status, code: code, message: message, detail: "\(parserError)")
        } else {
            deferredError = (status, code, message, "\(parserError)")
        }
    }

    /// Most bytes of a request line or of a header block (NIO's decoder limits, per field and in all).
    static let maximumHeaderBytes = 80 * 1024
    /// Most header fields of a request.
    static let maximumHeaderFields = 1000
    /// How long the rest of an unread request is read and dropped after the answer, so
    /// the client reads the answer instead of a reset.
    static let lingerTime = TimeAmount.seconds(2)

    /// Closes the connection once what was written is sent: at once, or (`lingering`, the
    /// request's bytes were not all read) after closing only the output and dropping
    /// whatever the client still sends for ``lingerTime``: a peer whose unread bytes meet
    /// a closed socket gets a reset and may never see the answer.
    private static func finishConnection(_ context: ChannelHandlerContext, lingering: Bool) {
        guard lingering else {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        context.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: lingerTime) { channel.close(promise: nil) }
    }

    /// The status, code and message for a request the parser refused before its head.
    static func answer(to error: HTTPParserError, inRequestLine: Bool) -> (HTTPResponseStatus, String, String) {
        switch error {
        case .headerOverflow where inRequestLine:
            (.uriTooLong, "uri_too_long", "the request line is longer than the server accepts (80 KB); send long inputs in the body")
        case .headerOverflow:
            (.requestHeaderFieldsTooLarge, "headers_too_large",
             "the request headers are larger than the server accepts (80 KB in all and per field, 1,000 fields)")
        case .invalidMethod:
            (.badRequest, "malformed_request", "the request method is not a valid HTTP method (methods are upper-case: GET, POST, HEAD)")
        case .invalidURL:
            (.badRequest, "malformed_request", "the request target is not a valid URL")
        case .invalidVersion:
            (.badRequest, "malformed_request", "the request line does not end in HTTP/1.0 or HTTP/1.1 and CRLF")
        case .lfExpected, .invalidConstant:
            (.badRequest, "malformed_request", "the request is not valid HTTP/1 syntax (lines end with CRLF)")
        case .invalidHeaderToken, .invalidCharactersUsed:
            (.badRequest, "malformed_request", "a header name or value holds characters HTTP does not allow")
        case .invalidContentLength, .unexpectedContentLength:
            (.badRequest, "malformed_request", "the Content-Length header is invalid")
        default:
            (.badRequest, "malformed_request", "the request is not valid HTTP/1 (\(error))")
        }
    }

    /// Writes a complete JSON error response and closes the connection after it.
    private func answerDirectly(context: ChannelHandlerContext, status: HTTPResponseStatus, code: String, message: String, detail: String) {
        let requestID = String(UInt64.random(in: 0 ... .max), radix: 16)
        let body = context.channel.allocator.buffer(bytes: WireJSON.bytes(Components.Schemas.ErrorBody(error: code, message: message)))
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json; charset=utf-8")
        headers.add(name: "content-length", value: String(body.readableBytes))
        headers.add(name: "connection", value: "close")
        headers.add(name: "x-request-id", value: requestID)
        closing = true
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        Self.finishConnection(context, lingering: true)
        report(ProtocolErrorReport(status: Int(status.code), code: code, requestID: requestID, detail: detail))
    }
}

/// Shared by ``ConnectionPolicyHandler`` (after NIO's HTTP decoder) and ``RequestLineSniffer``
/// (before it), on one event loop: whether the next bytes begin a request and whether its
/// request line has ended, to tell a URL over the limit (414) from headers over it (431).
/// Pipelined requests behind a body are not sniffed (their overflow says 431).
final class RequestLineTracker {
    /// No head of the next request has been decoded yet.
    private(set) var awaitingHead = true
    /// The request line of the request being awaited has ended (an LF was seen).
    private(set) var requestLineDone = false
    /// Bytes of the awaited request's first line seen so far.
    private(set) var requestLineBytes = 0

    func headArrived() { awaitingHead = false }
    func requestEnded() {
        awaitingHead = true
        requestLineDone = false
        requestLineBytes = 0
    }
    /// `count` more bytes of the request line; `ended` when its LF was among them.
    func lineBytes(_ count: Int, ended: Bool) {
        requestLineBytes += count
        requestLineDone = ended
    }
}

/// Before NIO's HTTP decoder: notes when the awaited request's first line ends.
/// O(bytes of the request line); the bytes pass on unchanged.
final class RequestLineSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let tracker: RequestLineTracker

    init(tracker: RequestLineTracker) { self.tracker = tracker }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if tracker.awaitingHead, !tracker.requestLineDone {
            let bytes = unwrapInboundIn(data).readableBytesView
            if let lf = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                tracker.lineBytes(lf - bytes.startIndex, ended: true)
            } else {
                tracker.lineBytes(bytes.count, ended: false)
            }
        }
        context.fireChannelRead(data)
    }
}
