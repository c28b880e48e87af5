import Catalog
import Fingerprints
import Foundation
import Search
import SQLiteStore

extension BenchSearchCommand {
    /// Rows for real queries against a catalog on disk (`--db PATH --queries FOLDER`): every
    /// image of the folder fingerprinted once with the default query layout, then searched
    /// `--repeat` times each on one thread (exact scan, default threshold) per instruction
    /// set; each row gives the median and the 99th percentile over every (query, run), the
    /// mean number of landmarks matched, the catalog's landmarks, views and index bytes (the
    /// snapshot's, mapped as `glimpse query` maps it).
    func timeQueries(catalog path: String, folder: String) throws {
        guard let snapshotPath = VisualIndexSnapshot.path(forCatalogAt: path) else { throw failure("bench-search: --db needs a file") }
        let store: SQLiteEntityStore
        let version: CatalogVersion
        do {
            store = try SQLiteEntityStore(path: path, mode: .readOnly)
            version = try store.catalogVersion()
        } catch { throw failure(error.description) }
        guard case .loaded(let index) = VisualIndexSnapshot.load(path: snapshotPath, expecting: version) else {
            throw failure("bench-search: \(snapshotPath) is not a current snapshot of \(path) (run glimpse index first)")
        }
        let photos: [String]
        do { photos = try PhotoFolder(scanning: folder).photos } catch { throw failure(error.description) }
        let fingerprinter = ImageFingerprinter.query
        var queries: [Fingerprint] = []
        for photo in photos {
            do { queries.append(try fingerprinter.fingerprint(file: photo)) } catch { printError("glimpse: skipped query: \(error)") }
        }
        guard !queries.isEmpty else { throw failure("bench-search: \(folder) has no query image that decodes") }
        let sets = isa.flatMap { name in InstructionSet.allCases.first { $0.description == name } }.map { [$0] }
            ?? InstructionSet.allCases.filter(\.isSupported)
        var rows: [String] = []
        for set in sets.reversed() {
            var samples: [Double] = []
            var matched = 0
            for query in queries {
                let search = { () throws -> Int in
                    try index.search(query, minimumScore: SimilarityScoring.defaultNoMatchThreshold, threads: 1, using: set).matches.count
                }
                do { _ = try search() } catch { throw failure("\(error)") }  // warm-up
                for _ in 0..<runs {
                    let start = ContinuousClock.now
                    do { matched += try search() } catch { throw failure("\(error)") }
                    let (seconds, attoseconds) = (ContinuousClock.now - start).components
                    samples.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
                }
            }
            samples.sort()
            func percentile(_ p: Double) -> Double { samples[min(samples.count - 1, Int((p * Double(samples.count)).rounded(.up)) - 1)] }
            rows.append(#"{"name":"exact search, \#(queries.count) real queries, default query layout","isa":"\#(set)","threads":1,"#
                + #""p50Ms":\#(String(format: "%.3f", percentile(0.5))),"p99Ms":\#(String(format: "%.3f", percentile(0.99))),"#
                + #""meanMatched":\#(String(format: "%.2f", Double(matched) / Double(samples.count)))}"#)
        }
        print(#"{"landmarks":\#(index.landmarkCount),"views":\#(index.viewCount),"indexBytes":\#(index.bytesUsed),"#
              + #""queries":\#(queries.count),"rows":[\#(rows.joined(separator: ","))]}"#)
    }
}
