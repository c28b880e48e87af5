import Foundation

/// Runs blocking work on a new thread of its own and awaits its result, so long CPU work
/// (an index build) neither occupies the cooperative executor's few threads that serve
/// requests nor waits behind them.
enum DedicatedThread {
    /// The result of `body`, run on a new thread.
    ///
    /// - Complexity: one thread creation plus `body`.
    static func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
            thread.name = "glimpse-index-build"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
