import CSIMDKernels

/// The number of processor cores this process may run on: its CPU affinity mask
/// (`taskset`, a container's cpuset), not the machine's core count, so work split across
/// cores (a multi-threaded index scan) stays on one thread under `taskset -c 1`.
public enum AvailableCores {
    /// Cores in the process's affinity mask when first read (at least 1).
    /// - Complexity: O(1) after the first read (one `sched_getaffinity` call).
    public static let count: Int = Int(glimpse_cpu_available_cores())

    /// Each one's share of the cores when `concurrent` tasks run at once (at least 1): the
    /// threads a search may scan on when `glimpse match --jobs N` runs N of them. O(1).
    public static func share(among concurrent: Int) -> Int {
        max(1, count / max(1, concurrent))
    }
}
