import HTTPTypes
import Synchronization

/// A bounded number of searches at once, without a queue: a search takes a slot or is
/// refused at once (the route answers 429 with `Retry-After`), so a burst can neither
/// grow memory nor latency without bound.
public final class SearchSlots: Sendable {
    private let inUse = Mutex(0)
    /// How many searches may run at once.
    public let capacity: Int

    /// Creates `capacity` slots.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Runs `body` in a slot, or throws 429 `too_many_requests` when none is free. O(1).
    func withSlot<T>(_ body: () async throws -> T) async throws -> T {
        let granted = inUse.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard granted else {
            throw APIError(.tooManyRequests, "too_many_requests",
                           "\(capacity) searches are already running; retry after the delay in Retry-After",
                           headers: [.retryAfter: "1"])
        }
        defer { inUse.withLock { $0 -= 1 } }
        return try await body()
    }
}
