import Synchronization

/// Whether the catalog database answered the reloader's last check: a replica whose
/// database went away keeps answering from the index in memory but reports itself not
/// ready (`/readyz` 503 with the reason) until a check succeeds again, so a load balancer
/// can prefer replicas that see catalog changes. Thread-safe.
public final class CatalogHealth: Sendable {
    private let failure = Mutex<String?>(nil)

    /// Creates a healthy state (nothing failed yet).
    public init() {}

    /// Why the last check failed, or `nil` when it succeeded. O(1).
    public var unreachableReason: String? { failure.withLock { $0 } }

    /// Records a successful check; `true` when the catalog was unreachable before. O(1).
    @discardableResult
    func reachable() -> Bool {
        failure.withLock { state in
            defer { state = nil }
            return state != nil
        }
    }

    /// Records a failed check; `true` when it was reachable before. O(1).
    @discardableResult
    func unreachable(_ reason: String) -> Bool {
        failure.withLock { state in
            defer { state = reason }
            return state == nil
        }
    }
}
