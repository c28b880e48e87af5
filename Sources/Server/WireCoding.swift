import Foundation
import Hummingbird
import Search

/// Hummingbird's response encoder for the JSON bodies of the plain routes and of every error: the wire-format
/// home's one encoder (``WireJSON``: sorted snake_case keys, compact), `application/json; charset=utf-8`
/// (the type the generated interface answers with too).
/// ``GlimpseRequestContext/responseEncoder`` is this, so routes answer with
/// `context.responseEncoder.encode(value, from: request, context: context)` (or
/// ``GlimpseRequestContext/json(_:for:status:)``).
public struct WireResponseEncoder: ResponseEncoder, Sendable {
    /// Creates the encoder.
    public init() {}

    /// `value` as a 200 `application/json; charset=utf-8` response.
    /// - Complexity: O(size of the value).
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: WireJSON.bytes(value))))
    }
}
