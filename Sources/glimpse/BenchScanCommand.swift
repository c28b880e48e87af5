import ArgumentParser
import Fingerprints
import Foundation
import Search

/// `glimpse bench-scan`: times the index's Hamming scan over synthetic 64-bit codes, for
/// `benchmarks/compare-peers.sh` (which sets it beside a C popcount limit). Hidden from
/// `--help`: a measurement tool, not a user command.
struct BenchScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-scan",
        abstract: "Time the Hamming scan of one query over N synthetic 64-bit codes (benchmark tool).",
        discussion: """
            Prints one JSON line (BenchmarkRecord): {"codes", "kernel", "rows": [{"name", "best_ms", "median_ms", \
            "codes_per_second"}]} for the distance pass (one UInt16 per code) and the top-10 scan. \
            Codes are the same xorshift sequence the C limit in benchmarks/peers/limits uses.
            """,
        shouldDisplay: false
    )

    @Option(help: "Number of 64-bit codes to scan.")
    var codes: Int = 1_000_000

    @Option(name: .customLong("repeat"), help: "Timed runs per scan, after one warm-up run.")
    var runs: Int = 100

    func run() async throws {
        guard codes > 0, runs > 0 else {
            throw failure("bench-scan: --codes and --repeat must be positive")
        }
        let buffer = SyntheticCodes.xorshift(count: codes)
        let query: UInt64 = 0x9e37_79b9_7f4a_7c15
        var distances = [UInt16](repeating: 0, count: codes)
        var sink = 0
        let distancePass = buffer.withUnsafeBufferPointer { codeBuffer in
            distances.withUnsafeMutableBufferPointer { out in
                RunTimer.measure(runs: runs) {
                    HammingScan.distances(from: query, to: codeBuffer, into: out)
                }
            }
        }
        sink &+= Int(distances[codes / 2])
        let topK = buffer.withUnsafeBufferPointer { codeBuffer in
            RunTimer.measure(runs: runs) {
                sink &+= HammingScan.nearest(10, to: query, in: codeBuffer).first?.index ?? 0
            }
        }
        let rows = [("distances, one UInt16 per code", distancePass), ("top-10 nearest (index scan)", topK)]
        let record = BenchmarkRecord(codes: codes, kernel: "\(InstructionSet.best)", check: sink & 1, rows: rows.map { name, timing in
            BenchmarkRecord.Row(name: name, bestMilliseconds: timing.bestMs, medianMilliseconds: timing.medianMs,
                                codesPerSecond: Double(codes) / (timing.bestMs / 1000))
        })
        print(WireJSON.line(record))
    }
}

/// Deterministic pseudo-random 64-bit codes for scan benchmarks.
enum SyntheticCodes {
    /// `count` codes from Marsaglia's xorshift64 (13, 7, 17) seeded with 0x2545F4914F6CDD1D:
    /// the sequence `benchmarks/peers/limits/popcount_limit.c` scans. O(count).
    static func xorshift(count: Int) -> [UInt64] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
    }
}
