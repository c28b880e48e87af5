import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The ``APIError`` of a request the generated interface refused before any operation ran:
/// 400 `invalid_parameter` naming the query parameter or header that did not decode (or is
/// missing), 400 `invalid_body` for a body that is not the operation's schema, 406
/// `not_acceptable` for an `Accept` the answer cannot meet, 415 `unsupported_media_type`.
enum GeneratedRequestError {
    /// The query parameters of the spec, to tell a parameter's decoding error from a body's.
    static let queryParameters: Set<String> = ["page_token", "region", "region_fraction", "labels", "page_size", "deadline_ms", "exact",
                                               "min_score", "with", "ids", "as"]

    /// The refusal `error` stands for (its status is below 500).
    /// - Complexity: O(coding path).
    static func apiError(_ error: ServerError) -> APIError {
        switch error.httpStatus {
        case .notAcceptable:
            return APIError(.notAcceptable, "not_acceptable", "\(error.causeDescription) (this operation answers application/json unless the spec says otherwise)")
        case .unsupportedMediaType:
            return APIError(.unsupportedMediaType, "unsupported_media_type", error.causeDescription)
        default:
            break
        }
        if let decoding = error.underlyingError as? DecodingError {
            let path = codingPath(decoding), reason = summary(decoding)
            if let name = path.first, queryParameters.contains(name) {
                return APIError(.badRequest, "invalid_parameter", "\(name): not a valid value for this parameter (see /openapi.yaml): \(reason)")
            }
            // The query string is decoded before the body, and its decoder names no key: its
            // errors say they could not convert a value.
            if path.isEmpty, reason.hasPrefix("Failed to convert") || reason.hasPrefix("Cannot initialize") {
                let given = queryItems(of: error.request).filter { queryParameters.contains($0.name) }.map { "\($0.name)=\($0.value.prefix(40))" }
                return APIError(.badRequest, "invalid_parameter",
                                "a query parameter is not of the type the spec gives it (\(given.joined(separator: ", ")); see /openapi.yaml): \(reason)")
            }
            let field = path.isEmpty ? "" : " at \(path.joined(separator: "."))"
            return APIError(.badRequest, "invalid_body", "the body does not follow the operation's schema\(field) (see /openapi.yaml): \(reason)")
        }
        let code = error.causeDescription.localizedStandardContains("query parameter") ? "missing_parameter" : "bad_request"
        return APIError(.badRequest, code, error.causeDescription)
    }

    /// The query items of `request`'s target, as sent (not percent-decoded).
    private static func queryItems(of request: HTTPRequest) -> [(name: String, value: Substring)] {
        guard let target = request.path, let mark = target.firstIndex(of: "?") else { return [] }
        return target[target.index(after: mark)...].split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? parts[1] : "")
        }
    }

    private static func codingPath(_ error: DecodingError) -> [String] {
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
            if case .keyNotFound(let key, _) = error { return path.map(\.stringValue) + [key.stringValue] }
        @unknown default:
            path = []
        }
        return path.map(\.stringValue)
    }

    private static func summary(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            String(context.debugDescription.prefix(200))
        @unknown default:
            "undecodable"
        }
    }
}
