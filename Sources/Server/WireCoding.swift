import Foundation
import Hummingbird
import Search

/// Hummingbird's response encoder for every JSON body the server sends: the wire-format
/// home's one encoder (``WireJSON``: sorted snake_case keys, compact), `application/json; charset=utf-8`
/// (the type the generated interface answers with too).
/// ``GlimpseRequestContext/responseEncoder`` is this, so routes answer with
/// `context.responseEncoder.encode(value, from: request, context: context)` (or
/// ``GlimpseRequestContext/json(_:for:status:)``).
public struct WireResponseEncoder: ResponseEncoder, Sendable {
    /// Creates the encoder.
    public init() {}

    /// `value` as a 200 `application/json` response.
    /// - Complexity: O(size of the value).
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: WireJSON.bytes(value))))
    }
}

/// Hummingbird's request decoder for JSON bodies, through ``WireJSON``. Routes read a body
/// under their own limits and upload policy first (``RequestBody/collect(_:limit:policy:budget:)``)
/// and decode the collected bytes with ``decode(_:collected:from:context:)``; a body that is not
/// the type asked for throws `DecodingError`, which the route turns into 400 `invalid_body`.
public struct WireRequestDecoder: RequestDecoder, Sendable {
    /// Creates the decoder.
    public init() {}

    /// Decodes the request's body (at most the context's `maxUploadSize` bytes).
    /// - Complexity: O(body bytes).
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        return try WireJSON.decode(type, from: buffer.readableBytesView)
    }

    /// Decodes a body already collected under a route's own limits.
    /// - Complexity: O(body bytes).
    public func decode<T: Decodable>(_ type: T.Type, collected body: ByteBuffer, from request: Request, context: some RequestContext) async throws -> T {
        try await decode(type, from: Request(head: request.head, body: .init(buffer: body)), context: context)
    }
}
