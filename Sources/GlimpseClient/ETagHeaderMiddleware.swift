import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `If-None-Match` as the entity tag it is. The generated client writes header
/// parameters URI-encoded (OpenAPI's `simple` style), which turns the quotes of an entity tag
/// (`"ebae3ad966ffe867"`) into `%22…%22`, a tag no server matches; this undoes that encoding.
struct ETagHeaderMiddleware: ClientMiddleware {
    /// Decodes the `If-None-Match` value when present.
    /// - Complexity: O(header length).
    func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var request = request
        if let tag = request.headerFields[.ifNoneMatch], let decoded = tag.removingPercentEncoding {
            request.headerFields[.ifNoneMatch] = decoded
        }
        return try await next(request, body, baseURL)
    }
}
