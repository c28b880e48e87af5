import Fingerprints
import Foundation
import Search

extension FirstStageCommand {
    /// One query of benchmarks/faiss/queries.py's file: the exhaustive scan's first landmark
    /// (nil: it answered nothing) and the query's informative views.
    struct MeasuredQuery {
        var expected: Int32?
        var codes: [CandidateIndex.QueryCode]
    }

    /// Reads the queries file: per line `EXPECTED COUNT (PHASH DHASH F|I)×COUNT`. O(bytes).
    static func readQueries(_ path: String) throws -> [MeasuredQuery] {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw failure("\(path): cannot read the queries: \(error.localizedDescription)")
        }
        var queries: [MeasuredQuery] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let expected = Int32(fields[0]), let count = Int(fields[1]), count >= 0,
                  fields.count == 2 + 3 * count else {
                throw failure("\(path):\(number + 1): not a query line (EXPECTED COUNT then PHASH DHASH F|I per view)")
            }
            var codes: [CandidateIndex.QueryCode] = []
            for v in 0..<count {
                guard let low = UInt64(fields[2 + 3 * v], radix: 16), let high = UInt64(fields[3 + 3 * v], radix: 16),
                      fields[4 + 3 * v] == "F" || fields[4 + 3 * v] == "I" else {
                    throw failure("\(path):\(number + 1): view \(v + 1) is not PHASH DHASH F|I")
                }
                codes.append(CandidateIndex.QueryCode(code: CandidateCode(low: low, high: high), isFullFrame: fields[4 + 3 * v] == "F"))
            }
            queries.append(MeasuredQuery(expected: expected < 0 ? nil : expected, codes: codes))
        }
        guard !queries.isEmpty else { throw failure("\(path): no queries") }
        return queries
    }

    /// Answers every query of `path` through `firstStage` on this thread and prints the row
    /// benchmarks/faiss-first-stage.sh puts beside faiss's: p50 / p99 of the first stage alone,
    /// how many answered queries keep the exhaustive scan's first landmark among the
    /// candidates, and the top-1 agreement that follows (scores are exact, so the first
    /// landmark is the same exactly when it is a candidate).
    /// `built`: how long its build took, when this run built it.
    func measure(_ firstStage: CandidateIndex, queriesAt path: String, built: Duration?) throws {
        let queries = try Self.readQueries(path)
        let parameters = try firstStageParameters.map(CandidateIndex.SearchParameters.init(parsing:)) ?? CandidateIndex.SearchParameters()
        let chosen: InstructionSet
        if let isa {
            guard let named = InstructionSet(named: isa) else {
                throw failure("--isa wants portable, avx2 or avx512; got '\(isa)'")
            }
            guard named.isSupported else { throw failure("--isa \(isa): this CPU does not have it") }
            chosen = named
        } else {
            chosen = .best
        }
        var samples: [Double] = [], found = 0, answered = 0, agreed = 0
        let clock = ContinuousClock()
        for query in queries {
            let start = clock.now
            let candidates = firstStage.candidates(for: query.codes, parameters: parameters, using: chosen)
            samples.append(ProgressDisplay.seconds(clock.now - start) * 1000)
            if let expected = query.expected {
                answered += 1
                // Ascending landmark numbers.
                let kept = candidates.withUnsafeBufferPointer { $0.binarySearchContains(expected) }
                if kept { found += 1; agreed += 1 }
            } else {
                agreed += 1
            }
        }
        samples.sort()
        func percentile(_ p: Double) -> Double { RunTiming.percentile(p, ofSorted: samples) }
        let bytesPerEntry = Double(firstStage.bytesUsed) / Double(max(1, firstStage.entryCount))
        let build = built.map { String(format: "%.1f s (%d threads)", ProgressDisplay.seconds($0), AvailableCores.count) } ?? "built before"
        let figures = String(format: "%.0f B | %.2f / %.2f ms | %d / %d | %.4f |", bytesPerEntry, percentile(0.5), percentile(0.99),
                             found, answered, Double(agreed) / Double(queries.count))
        let probes = parameters.entryBudget.map { "a shared budget of \($0) entries" }
            ?? "\(parameters.probes) (\(parameters.probes * parameters.innerProbeFactor)) probes"
        print("| Glimpse CandidateIndex (\(chosen)), \(firstStage.listCount) lists, \(probes), "
            + "radius \(parameters.radius), \(parameters.maximumCandidates) candidates | \(build) | \(figures)")
    }
}

extension UnsafeBufferPointer where Element == Int32 {
    /// Whether the ascending buffer holds `value`. O(log count).
    fileprivate func binarySearchContains(_ value: Int32) -> Bool {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value
    }
}
