import Catalog
import Fingerprints
import Synchronization

/// The catalog's ``UnsearchableCounts`` for `/readyz`, read from the store once per
/// catalog generation (the count is a scan of the images; readiness checks come every few
/// seconds). Thread-safe.
final class UnsearchableCountCache: Sendable {
    private let cached = Mutex<(generation: Int64, counts: UnsearchableCounts?)?>(nil)

    /// The counts of `generation`, read from `store` unless already read for it; `nil` when
    /// the catalog does not record them or the read failed (retried on the next call).
    /// - Complexity: O(1) when cached, else one store read (O(images)).
    func counts(for generation: Int64, store: any EntityStore) async -> UnsearchableCounts? {
        if let known = cached.withLock({ $0 }), known.generation == generation { return known.counts }
        guard let counts = try? await store.unsearchableCounts(minimumViewQuality: FingerprintView.minimumSearchableQuality) else { return nil }
        cached.withLock { $0 = (generation, counts) }
        return counts
    }
}
