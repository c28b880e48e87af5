import Catalog
import Fingerprints
import Synchronization

/// The catalog's ``UnsearchableCounts`` for `/readyz`, counted once per catalog generation
/// in the background: the count is a scan of the catalog's unsearchable images (seconds at a
/// million images), and a readiness check must answer at once, so `/readyz` shows the latest
/// counts known (those of an earlier generation while a newer one is counted; none before
/// the first count ends, or after a count failed). One count runs at a time: generations
/// that come faster than counts end (images added while a replica serves) are not each
/// counted side by side; when a count ends and a newer generation was asked for meanwhile,
/// the newest is counted next. Thread-safe.
final class UnsearchableCountCache: Sendable {
    private struct State {
        /// The newest generation asked for.
        var wanted: Int64?
        /// The generation of ``counts``.
        var counted: Int64?
        var counts: UnsearchableCounts?
        /// Whether a count is started or running.
        var counting = false
        /// Counts running now, and the most that ran at once (tests).
        var running = 0, mostAtOnce = 0
    }
    private let state = Mutex(State())

    /// The most counts that ran at the same time so far: at most 1.
    var mostCountsAtOnce: Int { state.withLock { $0.mostAtOnce } }
    /// The generation the latest counts known are of; `nil` before the first count ends.
    var countedGeneration: Int64? { state.withLock { $0.counted } }

    /// The latest counts known; a call for a generation not counted yet starts counting it
    /// (one store read, O(unsearchable images)) without waiting, unless a count is running
    /// (its end starts the newest generation's).
    /// - Complexity: O(1).
    func counts(for generation: Int64, store: any EntityStore) -> UnsearchableCounts? {
        let (known, start) = state.withLock { state -> (UnsearchableCounts?, Bool) in
            state.wanted = generation
            guard !state.counting, state.counted != generation else { return (state.counts, false) }
            state.counting = true
            return (state.counts, true)
        }
        if start { count(generation, store: store) }
        return known
    }

    /// Counts `generation` in a task of its own, then the newest generation asked for
    /// meanwhile, if any.
    private func count(_ generation: Int64, store: any EntityStore) {
        Task {
            self.state.withLock { state in
                state.running += 1
                state.mostAtOnce = max(state.mostAtOnce, state.running)
            }
            let counts = try? await store.unsearchableCounts(minimumViewQuality: FingerprintView.minimumSearchableQuality)
            let next = self.state.withLock { state -> Int64? in
                state.running -= 1
                state.counted = generation
                state.counts = counts
                if let wanted = state.wanted, wanted != generation { return wanted }
                state.counting = false
                return nil
            }
            if let next { self.count(next, store: store) }
        }
    }
}
