import Foundation
import GlimpseAPITypes
import HTTPTypes
import OpenAPIRuntime

/// Turns every answer with an error status (400 and up) into a thrown
/// ``GlimpseClientError/server(status:code:message:retryAfterSeconds:)`` carrying the server's
/// JSON error body, so each operation handles only its success answers and every operation
/// reports errors the same way. A body that is not the API's error object is
/// ``GlimpseClientError/unexpectedResponse(status:detail:)``.
struct ServerErrorMiddleware: ClientMiddleware {
    /// The most bytes of an error body read (the server's are under 1 KB).
    static let maximumErrorBodyBytes = 64 << 10

    /// Passes success and 304 answers through; reads and throws the rest.
    /// - Complexity: O(error body bytes).
    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.code >= 400 else { return (response, responseBody) }
        let retryAfter = response.headerFields[.retryAfter].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        var bytes = Data()
        if let responseBody {
            do {
                bytes = try await Data(collecting: responseBody, upTo: Self.maximumErrorBodyBytes)
            } catch {
                throw GlimpseClientError.unexpectedResponse(status: response.status.code,
                                                            detail: "an error body over \(Self.maximumErrorBodyBytes) bytes or cut short")
            }
        }
        guard let error = try? JSONDecoder().decode(Components.Schemas.ErrorBody.self, from: bytes) else {
            let excerpt = String(decoding: bytes.prefix(200), as: UTF8.self)
            let type = response.headerFields[.contentType] ?? "no Content-Type"
            throw GlimpseClientError.unexpectedResponse(status: response.status.code,
                                                        detail: "not the API's error object (\(type)): \(excerpt)")
        }
        throw GlimpseClientError.server(status: response.status.code, code: error.error, message: error.message,
                                        retryAfterSeconds: retryAfter)
    }
}
