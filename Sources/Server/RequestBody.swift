import Hummingbird

/// Reading request bodies under a byte limit, checked as the body streams in: a body
/// over the limit is refused (413) after at most `limit` bytes were buffered, whatever
/// its `Content-Length` claims (a declared length over the limit is refused before any
/// byte is read).
enum RequestBody {
    /// The whole body of `request`, at most `limit` bytes.
    ///
    /// - Complexity: O(body bytes), memory at most `limit`.
    /// - Throws: 413 `payload_too_large`, 400 `invalid_body` when the stream fails.
    static func collect(_ request: Request, limit: Int) async throws(APIError) -> ByteBuffer {
        let tooLarge = APIError(.contentTooLarge, "payload_too_large", "the request body is larger than the limit of \(limit) bytes")
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit { throw tooLarge }
        var collected = ByteBuffer()
        do {
            for try await part in request.body {
                guard part.readableBytes <= limit - collected.readableBytes else { throw tooLarge }
                var part = part
                collected.writeBuffer(&part)
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.badRequest, "invalid_body", "the request body could not be read: \(error)")
        }
        return collected
    }
}
