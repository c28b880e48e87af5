import Synchronization

/// One timer for many deadlines: a waiter registers its deadline (recomputed at each check,
/// so it may move later as work progresses, as a request body's does) and awaits
/// ``overdue(deadline:)``, which returns once the deadline has passed or the waiting task is
/// cancelled (the work finished first). ``withTimeout(_:_:)`` bounds a call with it.
///
/// One sleeping task checks all waiters, waking at the earliest deadline, and runs only while
/// someone waits. The server has one for request bodies
/// (``RequestBody``), one for entity reads (``LastKnownEntityStore``) and one for the
/// reloader's checks: a Dispatch timer per call, armed and cancelled for every body and
/// every read however quick, cost about a sixth of the server's CPU under load in timer
/// bookkeeping (docs/PERFORMANCE.md).
final class DeadlineWatchdog: Sendable {
    /// A deadline, recomputed at every check (it moves later as bytes arrive).
    typealias Deadline = @Sendable () -> ContinuousClock.Instant

    private enum Slot {
        /// Registered; its continuation not yet.
        case pending
        case waiting(Deadline, CheckedContinuation<Void, Never>)
        /// Cancelled before its continuation was registered.
        case cancelled
    }

    private struct State {
        var slots: [UInt64: Slot] = [:]
        var nextID: UInt64 = 0
        /// When the sweeper wakes next; `nil`: no sweeper runs.
        var wake: ContinuousClock.Instant?
        /// The current sweeper's number (an older one that wakes up stops).
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates a watchdog (it starts its sweeper when the first waiter comes).
    init() {}

    /// Returns once `deadline()` has passed, or at once when the calling task is cancelled.
    /// `deadline` is called under the watchdog's lock: it must be quick and not wait.
    /// - Complexity: O(1) to register; each check costs O(waiters).
    func overdue(deadline: @escaping Deadline) async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID &+= 1 }
            state.slots[state.nextID] = .pending
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let outcome = state.withLock { state -> (cancelled: Bool, sweeper: (generation: UInt64, wake: ContinuousClock.Instant)?) in
                    if case .cancelled = state.slots[id] {
                        state.slots[id] = nil
                        return (true, nil)
                    }
                    state.slots[id] = .waiting(deadline, continuation)
                    // A sweeper already waking by then sees this deadline too; else a new one.
                    let due = deadline()
                    if let wake = state.wake, wake <= due { return (false, nil) }
                    state.generation &+= 1
                    state.wake = due
                    return (false, (state.generation, due))
                }
                if outcome.cancelled { continuation.resume() }
                if let sweeper = outcome.sweeper { Task { await self.sweep(generation: sweeper.generation, first: sweeper.wake) } }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
                switch state.slots[id] {
                case .pending:
                    state.slots[id] = .cancelled
                    return nil
                case .waiting(_, let continuation):
                    state.slots[id] = nil
                    return continuation
                case .cancelled, nil:
                    return nil
                }
            }
            waiting?.resume()
        }
    }

    /// Sleeps until the earliest deadline, resumes the overdue waiters, and again, until no
    /// waiter is left or a newer sweeper (for an earlier deadline) took over. Deadlines only
    /// move later, so waking at the earliest one found never misses one.
    private func sweep(generation: UInt64, first: ContinuousClock.Instant) async {
        var next = first
        while true {
            try? await Task.sleep(until: next, clock: .continuous)
            let now = ContinuousClock.now
            let (due, wake) = state.withLock { state -> ([CheckedContinuation<Void, Never>], ContinuousClock.Instant?) in
                guard state.generation == generation else { return ([], nil) }
                var due: [CheckedContinuation<Void, Never>] = [], earliest: ContinuousClock.Instant?
                for (id, slot) in state.slots {
                    guard case .waiting(let deadline, let continuation) = slot else { continue }
                    let instant = deadline()
                    if instant <= now {
                        state.slots[id] = nil
                        due.append(continuation)
                    } else {
                        earliest = min(earliest ?? instant, instant)
                    }
                }
                state.wake = earliest
                return (due, earliest)
            }
            for continuation in due { continuation.resume() }
            guard let wake else { return }
            next = wake
        }
    }

    /// What ``withTimeout(_:_:)`` throws when the time is up.
    struct TimedOut: Error, CustomStringConvertible {
        /// The limit, in whole seconds.
        var seconds: Int64
        var description: String { "no answer within \(seconds) s" }
    }

    /// `body`'s result, or ``TimedOut`` once `limit` has passed (`body` is then cancelled).
    /// - Complexity: O(1) besides `body`.
    func withTimeout<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let due = ContinuousClock.now + limit
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                await self.overdue { due }
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TimedOut(seconds: limit.components.seconds) }
            return value
        }
    }
}
