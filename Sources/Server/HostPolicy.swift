import HTTPTypes
import Hummingbird

/// Which `Host` a request may name (RFC 9112 §3.2: exactly one, or 400), and the check
/// that refuses the others: a server bound to a loopback address accepts only loopback
/// names (`127.0.0.1`, `localhost`, `[::1]`) unless `--allowed-host` adds some, which
/// stops a DNS-rebinding page from reading entity JSON (it holds server file paths); a
/// server bound elsewhere accepts any name unless `--allowed-host` lists them.
struct HostPolicy: Sendable, Hashable {
    /// Lower-cased names accepted (without port); `nil`: any.
    let allowed: Set<String>?

    /// Names loopback clients use.
    static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "::1"]

    /// The policy of a server bound to `host` with `extra` allowed names.
    init(boundHost: String, extra: [String]) {
        let bound = boundHost.lowercased()
        let names = Set(extra.map { Self.name(ofHost: $0) })
        if Self.loopbackNames.contains(bound) || bound.hasPrefix("127.") {
            allowed = Self.loopbackNames.union([bound]).union(names)
        } else if !names.isEmpty {
            allowed = names.union([bound])
        } else {
            allowed = nil
        }
    }

    /// The host name of a `Host` value, lower-cased, without port or IPv6 brackets. O(length).
    static func name(ofHost value: String) -> String {
        var text = value.lowercased()
        if text.hasPrefix("[") {
            if let close = text.firstIndex(of: "]") { text = String(text[text.index(after: text.startIndex)..<close]) }
            return text
        }
        if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon { text = String(text[..<colon]) }
        return text
    }

    /// Whether a `Host` value (a name, with or without port) is accepted. O(length).
    func accepts(_ authority: String) -> Bool {
        allowed.map { $0.contains(Self.name(ofHost: authority)) } ?? true
    }

    /// Why `request` is refused, or `nil` when its `Host` is acceptable. O(headers).
    func refusal(_ request: Request) -> APIError? {
        guard let authority = request.head.authority, !authority.isEmpty else {
            return APIError.badRequest("missing_host", "the request has no Host header (HTTP/1.1 requires exactly one)")
        }
        if let extra = HTTPField.Name("Host"), !request.headers[values: extra].isEmpty {
            return APIError.badRequest("duplicate_host", "the request has more than one Host header (HTTP/1.1 requires exactly one)")
        }
        if let allowed, !accepts(authority) {
            return APIError(.misdirectedRequest, "host_not_allowed",
                            "Host '\(authority)' is not served here (allowed: \(allowed.sorted().joined(separator: ", ")); add it with --allowed-host)")
        }
        return nil
    }
}

/// Refuses requests whose `Host` the ``HostPolicy`` does not accept, before any route runs.
struct HostCheckMiddleware: RouterMiddleware {
    typealias Context = GlimpseRequestContext
    /// The policy applied.
    let policy: HostPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = policy.refusal(request) { throw refusal }
        return try await next(request, context)
    }
}
