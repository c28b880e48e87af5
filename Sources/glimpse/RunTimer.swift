import Foundation

/// Best and median wall time of repeated runs of one piece of work, for the `bench-*`
/// subcommands.
struct RunTiming: Sendable {
    /// Fastest run, milliseconds.
    var bestMs: Double
    /// Median run, milliseconds (mean of the middle two for an even count).
    var medianMs: Double
    /// Number of timed runs.
    var runs: Int
}

extension RunTiming {
    /// The `p` quantile (0…1) of ascending `samples` by the nearest-rank rule: the smallest
    /// sample with at least `p` of them at or below it. O(1).
    static func percentile(_ p: Double, ofSorted samples: [Double]) -> Double {
        samples[min(samples.count - 1, max(0, Int((p * Double(samples.count)).rounded(.up)) - 1))]
    }
}

/// Times closures on the monotonic clock: one untimed warm-up run, then `runs` timed runs.
enum RunTimer {
    /// Runs `work` once to warm up, then `runs` (≥ 1) times, and returns the best and the
    /// median. Costs `runs + 1` calls of `work`.
    static func measure(runs: Int, _ work: () throws -> Void) rethrows -> RunTiming {
        try work()
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        let clock = ContinuousClock()
        for _ in 0..<max(1, runs) {
            let start = clock.now
            try work()
            let elapsed = start.duration(to: clock.now)
            let (seconds, attoseconds) = elapsed.components
            samples.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        }
        samples.sort()
        let middle = samples.count / 2
        let median = samples.count % 2 == 1 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2
        return RunTiming(bestMs: samples[0], medianMs: median, runs: samples.count)
    }
}
