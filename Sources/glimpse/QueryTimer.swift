import Fingerprints
import Foundation
import Search

/// Times searches over a set of real query fingerprints for the benchmark commands
/// (`bench-search --db --queries`, `debug-capacity-index`): every query searched `runs` times
/// on one thread (after one untimed warm-up run unless told otherwise), one row with the p50,
/// p99 and mean over every (query, run) and the means of what the search found.
struct QueryTimer {
    /// The query fingerprints, in folder order.
    let queries: [Fingerprint]
    /// Timed runs per query.
    let runs: Int

    /// What one search returned: the landmark ids it matched, in rank order, and the
    /// (query view, catalog view) pairs it compared.
    typealias Outcome = (ids: [String], compared: Int)

    /// Times `search` over the first `limit` queries (all by default): the row and each
    /// query's last answer.
    /// - Complexity: (limit × (runs + warm-up)) searches.
    func timed(_ name: String, _ set: InstructionSet, limit: Int? = nil, warmUp: Bool = true,
               _ search: (Fingerprint) throws -> Outcome) throws -> (row: BenchmarkRecord.Row, answers: [[String]]) {
        var samples: [Double] = []
        var matched = 0, compared = 0
        var answers: [[String]] = []
        for query in queries.prefix(limit ?? queries.count) {
            if warmUp {
                do { _ = try search(query) } catch { throw failure("\(error)") }
            }
            var last: [String] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                let outcome: Outcome
                do { outcome = try search(query) } catch { throw failure("\(error)") }
                samples.append(Self.milliseconds(ContinuousClock.now - start))
                matched += outcome.ids.count
                compared += outcome.compared
                last = outcome.ids
            }
            answers.append(last)
        }
        samples.sort()
        let row = BenchmarkRecord.Row(name: name, isa: "\(set)", threads: 1,
                                      p50Milliseconds: RunTiming.percentile(0.5, ofSorted: samples),
                                      p99Milliseconds: RunTiming.percentile(0.99, ofSorted: samples),
                                      meanMilliseconds: samples.reduce(0, +) / Double(max(samples.count, 1)),
                                      meanMatched: Double(matched) / Double(max(samples.count, 1)), meanComparedPairs: compared / max(samples.count, 1))
        return (row, answers)
    }

    /// How far `approximate` answers agree with `exact` ones, query by query (the shorter
    /// list decides how many are compared): the share of queries with the same first
    /// landmark (or none for both), and the share of the exact top 10 also in the
    /// approximate top 10 (1 when the exact answers are all empty). O(queries).
    static func agreement(exact: [[String]], approximate: [[String]]) -> (top1: Double, top10: Double) {
        var sameFirst = 0, kept = 0, reference = 0
        for (e, a) in zip(exact, approximate) {
            if e.first == a.first { sameFirst += 1 }
            let top = Set(e.prefix(10))
            reference += top.count
            kept += top.intersection(a.prefix(10)).count
        }
        let compared = min(exact.count, approximate.count)
        return (compared == 0 ? 1 : Double(sameFirst) / Double(compared), reference == 0 ? 1 : Double(kept) / Double(reference))
    }

    /// A duration in milliseconds. O(1).
    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
