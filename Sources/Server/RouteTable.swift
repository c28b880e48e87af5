import Hummingbird
import Synchronization

/// Every route's path pattern and method, read from the router once its routes are
/// registered, so that a request for a known path with a method it does not take is
/// answered 405 with `Allow` (RFC 9110 §15.5.6) rather than Hummingbird's 404.
final class RouteTable: Sendable {
    private let entries = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

    /// Records the routes of `router` (call after every route is added). O(routes).
    func record(_ router: Router<GlimpseRequestContext>) {
        let routes = router.routes.map { (path: $0.path, method: $0.method) }
        entries.withLock { $0 = routes }
    }

    /// The methods the route matching `path` answers, sorted, with `HEAD` wherever `GET`
    /// is (the router generates it); empty when no route has this path.
    /// - Complexity: O(routes × path segments).
    func allowedMethods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        var methods = Set<String>()
        for entry in entries.withLock({ $0 }) where Self.matches(entry.path, segments) {
            methods.insert(entry.method.rawValue)
            if entry.method == .get { methods.insert(HTTPRequest.Method.head.rawValue) }
        }
        return methods.sorted().compactMap { HTTPRequest.Method($0) }
    }

    /// Whether `pattern` matches the path `segments` (captures and wildcards match one
    /// segment, `**` the rest).
    private static func matches(_ pattern: RouterPath, _ segments: [Substring]) -> Bool {
        let elements = pattern.components
        for (index, element) in elements.enumerated() {
            if element.description == "**" { return true }
            guard index < segments.count, element ~= segments[index] else { return false }
        }
        return elements.count == segments.count
    }
}
