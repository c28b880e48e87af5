import Foundation

/// Threads of their own for the CPU-heavy part of requests (decoding and fingerprinting
/// an upload, rendering a thumbnail), at most ``width`` jobs at once, the others waiting in
/// its queue. The threads that accept connections and answer `/healthz`, `/readyz`,
/// `/metrics` and entity reads (Swift's cooperative pool) never run such work, so a heavy
/// decode delays them only by the CPU it shares, not by holding their threads.
///
/// How many jobs can wait is bounded by the callers (``SearchSlots`` for searches, the
/// thumbnail limit for renders).
final class WorkerPool: Sendable {
    /// Jobs run at once.
    let width: Int
    private let queue: OperationQueue

    /// A pool running `width` jobs at once (at least 1).
    init(width: Int, name: String) {
        self.width = max(1, width)
        let queue = OperationQueue()
        queue.name = name
        queue.maxConcurrentOperationCount = self.width
        queue.qualityOfService = .userInitiated
        self.queue = queue
    }

    /// The result of `body`, run on one of the pool's threads once one is free.
    /// - Complexity: `body`, after the jobs queued before it.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.addOperation {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
