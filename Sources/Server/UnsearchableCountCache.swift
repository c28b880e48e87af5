import Catalog
import Fingerprints
import Synchronization

/// The catalog's ``UnsearchableCounts`` for `/readyz`, counted once per catalog generation
/// in the background: the count is a scan of the catalog's images, and a readiness check
/// must answer at once, so `/readyz` shows the latest counts known (those of the previous
/// generation while the new one is counted; none before the first count ends, or after a
/// count failed). Thread-safe.
final class UnsearchableCountCache: Sendable {
    private struct State {
        var generation: Int64?
        var counts: UnsearchableCounts?
    }
    private let state = Mutex(State())

    /// The latest counts known; the first call for a new `generation` starts counting it
    /// (one store read, O(images)) without waiting.
    /// - Complexity: O(1).
    func counts(for generation: Int64, store: any EntityStore) -> UnsearchableCounts? {
        let (known, start) = state.withLock { state -> (UnsearchableCounts?, Bool) in
            if state.generation == generation { return (state.counts, false) }
            state.generation = generation
            return (state.counts, true)
        }
        if start {
            Task {
                let counts = try? await store.unsearchableCounts(minimumViewQuality: FingerprintView.minimumSearchableQuality)
                self.state.withLock { if $0.generation == generation { $0.counts = counts } }
            }
        }
        return known
    }
}
