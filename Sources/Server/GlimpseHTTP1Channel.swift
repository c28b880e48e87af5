import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The server's HTTP/1.1 connection: Hummingbird's `HTTP1Channel` pipeline (NIO's decoder
/// and encoder, `HTTP1ToHTTPServerCodec`, Hummingbird's connection-state handler with its
/// idle timeout) with ``ConnectionPolicyHandler`` between NIO's HTTP parts and Hummingbird's
/// (HTTP/1.0, `Expect`, parser errors as JSON) and a ``RequestLineSniffer`` before the decoder.
struct GlimpseHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    /// Hummingbird's responder (the router).
    let responder: HTTPChannelHandler.Responder
    /// Seconds a connection may stay idle before it is closed.
    let idleTimeout: TimeAmount
    /// The body limit, for `100 Continue`.
    let maxBodyBytes: Int
    /// Called for every parser error answered below the router.
    let report: @Sendable (ConnectionPolicyHandler.ProtocolErrorReport) -> Void

    /// Builds the pipeline of one accepted connection. O(1).
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let tracker = RequestLineTracker()
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(RequestLineSniffer(tracker: tracker))
            try operations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: Self.decoderLimits)
            try operations.addHandler(ConnectionPolicyHandler(maxBodyBytes: maxBodyBytes, tracker: tracker, report: report))
            try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try operations.addHandler(HTTPConnectionStateHandler(idleTimeout: .init(idleTimeout), logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    /// NIO's decoder limits, the ones ``ConnectionPolicyHandler``'s messages name.
    static var decoderLimits: NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = ConnectionPolicyHandler.maximumHeaderBytes
        limits.maxHeaderListSize = ConnectionPolicyHandler.maximumHeaderBytes
        limits.maxHeaderFieldCount = ConnectionPolicyHandler.maximumHeaderFields
        return limits
    }

    /// Serves the connection's requests in order until it closes.
    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}
