@testable import Server
import Synchronization
import Testing

/// The one timer behind body stalls, entity-read and version-check time-outs.
///
/// Bounds on lateness are loose on purpose: other suites of this process run blocking work
/// on the same two cooperative threads (measured: a wake-up 50 s late during the decoder's
/// resource-limit suite), so what is checked is never early, never the far deadline, and
/// every waiter answered. A waiter that is never resumed hangs: the time limit catches it.
@Suite(.timeLimit(.minutes(10))) struct DeadlineWatchdogTests {
    /// A deadline no test reaches: a waiter back before it returned for another reason.
    static let far: Duration = .seconds(3600)

    @Test func aWaiterReturnsOnceItsDeadlineHasPassed() async {
        let watchdog = DeadlineWatchdog()
        let start = ContinuousClock.now
        await watchdog.overdue { start + .milliseconds(150) }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(150))
    }

    @Test func aDeadlineThatMovesLaterIsFollowed() async {
        // A body that keeps sending: each check finds its deadline 100 ms later, four times.
        let watchdog = DeadlineWatchdog()
        let start = ContinuousClock.now
        let checks = Mutex((count: 0, last: start))
        await watchdog.overdue {
            checks.withLock { checks in
                checks.count += 1
                checks.last = start + .milliseconds(100 * min(checks.count, 4))
                return checks.last
            }
        }
        let (count, last) = checks.withLock { $0 }
        #expect(count >= 2)
        #expect(ContinuousClock.now >= last)
    }

    @Test func aCancelledWaiterReturnsAtOnce() async {
        let watchdog = DeadlineWatchdog()
        let start = ContinuousClock.now
        let waiter = Task { await watchdog.overdue { start + Self.far } }
        try? await Task.sleep(for: .milliseconds(30))
        waiter.cancel()
        await waiter.value
        #expect(ContinuousClock.now - start < Self.far / 2)
    }

    @Test func aWaiterCancelledBeforeItWaitsReturnsAtOnce() async {
        let watchdog = DeadlineWatchdog()
        let start = ContinuousClock.now
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await watchdog.overdue { start + Self.far }
        }
        await waiter.value
        #expect(ContinuousClock.now - start < Self.far / 2)
    }

    @Test func manyWaitersEachReturnAtTheirOwnDeadline() async {
        let watchdog = DeadlineWatchdog()
        let start = ContinuousClock.now
        let lateness = await withTaskGroup(of: Duration.self) { group in
            for i in 0..<200 {
                let due = start + .milliseconds(20 + (i % 10) * 20)
                group.addTask {
                    await watchdog.overdue { due }
                    return ContinuousClock.now - due
                }
            }
            var all: [Duration] = []
            for await late in group { all.append(late) }
            return all
        }
        #expect(lateness.count == 200)
        #expect(lateness.allSatisfy { $0 >= .zero })
    }

    @Test func withTimeoutAnswersWhatTheCallReturns() async throws {
        let watchdog = DeadlineWatchdog()
        let value = try await watchdog.withTimeout(.seconds(5)) { 42 }
        #expect(value == 42)
        // An optional answer of nil is an answer, not a time-out.
        let none: Int? = try await watchdog.withTimeout(.seconds(5)) { nil }
        #expect(none == nil)
    }

    @Test func withTimeoutThrowsAndCancelsACallThatTakesTooLong() async {
        let watchdog = DeadlineWatchdog()
        let cancelled = Mutex(false)
        let start = ContinuousClock.now
        await #expect(throws: DeadlineWatchdog.TimedOut.self) {
            try await watchdog.withTimeout(.milliseconds(100)) {
                do { try await Task.sleep(for: Self.far) } catch { cancelled.withLock { $0 = true }; throw error }
            }
        }
        #expect(cancelled.withLock { $0 })
        #expect(ContinuousClock.now - start < Self.far / 2)
    }
}
