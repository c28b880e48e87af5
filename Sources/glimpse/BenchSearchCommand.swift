import ArgumentParser
import Catalog
import Fingerprints
import Foundation
import Search
import SQLiteStore
import SyntheticData

/// `glimpse bench-search`: times ``VisualIndex/search(_:scoring:minimumScore:deadline:limit:threads:using:)``
/// and the many-code stage-1 scan over a synthetic in-memory index, per instruction set, for
/// `benchmarks/compare-peers.sh` and quick checks (SearchBenchmarks is the reference suite).
/// Hidden from `--help`: a measurement tool, not a user command.
struct BenchSearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-search",
        abstract: "Time the visual index search over N synthetic views on each instruction set (benchmark tool).",
        discussion: """
            Builds a SyntheticCatalog index of --views views (31 per landmark) in memory, then \
            times, per instruction set this CPU has: the default query (every orientation and \
            the tilt views; search, default threshold), the same without its tilt views, the 4-view query issue 15 measured (full \
            frame, mirror, centre crops 85 % and 70 %), and a scan of --codes PDQ codes against \
            every view in one pass (what several query views × 8 orientations need); the two \
            searches on one thread, then again on --threads threads when that is more than one. \
            Prints one JSON line: \
            {"views", "bytes_per_view", "rows": [{"name", "isa", "threads", "best_ms", "median_ms", "hits"}]} (BenchmarkRecord).
            """,
        shouldDisplay: false
    )

    @Option(help: "Number of catalog views.")
    var views: Int = 1_000_000

    @Option(help: "PDQ codes compared with every view in the many-code row.")
    var codes: Int = 32

    @Option(name: .customLong("repeat"), help: "Timed runs per row, after one warm-up run.")
    var runs: Int = 50

    @Option(name: .customLong("threads"), help: "Threads of the multi-threaded search rows (default: the cores this process may use; 1: none).")
    var threadsOption: Int?

    /// `--threads`, or the cores this process may use.
    var threads: Int { threadsOption ?? AvailableCores.count }

    @Option(help: "Only this instruction set (portable, avx2, avx512); default every one the CPU has.")
    var isa: String?

    @Option(name: .customLong("db"), help: ArgumentHelp("Instead: time opening this catalog and mapping its snapshot (PATH.vindex).", valueName: "path"))
    var catalog: String?

    @Option(help: ArgumentHelp("With --db: instead, time searching the catalog with every image of this folder (p50, p99).", valueName: "folder"))
    var queries: String?

    @Option(help: ArgumentHelp("With --queries: first-stage parameters (lists probed per query view, code radius, most landmarks scored).",
                               valueName: "probes,radius,candidates", visibility: .hidden))
    var firstStageParameters: String?

    func run() async throws {
        guard views > 0, runs > 0, codes > 0, threads > 0 else {
            throw failure("bench-search: --views, --codes, --repeat and --threads must be positive")
        }
        if let catalog, let queries { return try timeQueries(catalog: catalog, folder: queries) }
        guard queries == nil else { throw failure("bench-search: --queries needs --db") }
        if let catalog { return try timeOpening(catalog) }
        let perLandmark = FingerprintViewLayout.catalog.viewCount
        let synthetic = SyntheticCatalog(landmarks: (views + perLandmark - 1) / perLandmark, seed: 2024)
        let entries = synthetic.content().landmarks.map {
            FingerprintSnapshot.Entry(landmarkID: $0.id, fingerprints: $0.referenceImages.compactMap(\.fingerprint))
        }
        let index = VisualIndex(version: CatalogVersion(catalogID: "bench", generation: 1, tokenKey: SIMD2(1, 2)), entries: entries)
        // Queries: landmark 4242's full frame with a few bits changed, other views unrelated; the
        // default query layout (every orientation) and the 4-view query of the issue (full frame,
        // mirror, centre crops 85 % and 70 %).
        var generator = SeededGenerator(seed: 77)
        func makeQuery(_ regions: [ViewRegion]) -> Fingerprint {
            var query = SyntheticCatalog.fingerprint(regions: regions, using: &generator)
            query.views[0] = entries[4242 % entries.count].fingerprints[0].views[0]
            query.views[0].pdq.words[0] ^= 0b1011
            return query
        }
        let query = makeQuery(FingerprintViewLayout.query.viewRegions)
        let fourViews = makeQuery([.full, .full, FingerprintViewLayout.centre(0.85), FingerprintViewLayout.centre(0.7)])
        let withoutTilts = Fingerprint(views: Array(query.views.prefix(FingerprintViewLayout.query.withoutTilts.viewCount)))
        let many = (0..<codes).map { k in
            k == 0 ? query.views[0].pdq : PDQHash(words: SIMD4(generator.next(), generator.next(), generator.next(), generator.next()))
        }
        let sets = isa.flatMap(InstructionSet.init(named:)).map { [$0] }
            ?? InstructionSet.allCases.filter(\.isSupported)
        var rows: [BenchmarkRecord.Row] = []
        for set in sets.reversed() {
            var hits = 0
            let fullCodes = query.views.filter { $0.region == .full }.count
            for count in threads > 1 ? [1, threads] : [1] {
                // The index is built in memory: a search cannot meet a damaged snapshot block.
                let search = try RunTimer.measure(runs: runs) {
                    do { hits = try index.search(query, minimumScore: SimilarityScoring.defaultNoMatchThreshold, threads: count, using: set).matches.count } catch { throw failure("\(error)") }
                }
                rows.append(Self.row("search, default \(query.views.count)-view query (\(fullCodes) full-frame codes x all views)", set, search, hits, threads: count))
                let upright = try RunTimer.measure(runs: runs) {
                    do { hits = try index.search(withoutTilts, minimumScore: SimilarityScoring.defaultNoMatchThreshold, threads: count, using: set).matches.count } catch { throw failure("\(error)") }
                }
                rows.append(Self.row("search, the same without its tilt views (\(withoutTilts.views.count) views)", set, upright, hits, threads: count))
                let four = try RunTimer.measure(runs: runs) {
                    do { hits = try index.search(fourViews, minimumScore: SimilarityScoring.defaultNoMatchThreshold, threads: count, using: set).matches.count } catch { throw failure("\(error)") }
                }
                rows.append(Self.row("search, 4-view query (2 full-frame codes x all views)", set, four, hits, threads: count))
            }
            let scan = try RunTimer.measure(runs: runs) {
                hits = 0
                do { try index.scan(many, in: .all, maxDistance: SimilarityScoring.default.candidatePDQRadius, using: set) { _, _, _ in hits += 1 } } catch { throw failure("\(error)") }
            }
            rows.append(Self.row("scan, \(codes) codes x all views", set, scan, hits))
        }
        let bytesPerView = Double(index.bytesUsed) / Double(index.viewCount)
        print(WireJSON.line(BenchmarkRecord(views: index.viewCount, bytesPerView: bytesPerView, rows: rows)))
    }

    /// Rows for a catalog on disk: opening the store and reading its version, mapping and
    /// checking the snapshot, and both together (what a cold start pays before scanning).
    private func timeOpening(_ path: String) throws {
        guard let snapshotPath = VisualIndexSnapshot.path(forCatalogAt: path) else { throw failure("bench-search: --db needs a file") }
        var viewCount = 0
        let open = try RunTimer.measure(runs: runs) {
            do { _ = try SQLiteEntityStore(path: path, mode: .readOnly).catalogVersion() } catch { throw failure("\(error)") }
        }
        let version: CatalogVersion
        do { version = try SQLiteEntityStore(path: path, mode: .readOnly).catalogVersion() } catch { throw failure("\(error)") }
        let map = try RunTimer.measure(runs: runs) {
            guard case .loaded(let index) = VisualIndexSnapshot.load(path: snapshotPath, expecting: version) else {
                throw failure("bench-search: \(snapshotPath) is not a current snapshot of \(path)")
            }
            viewCount = index.viewCount
        }
        let rows = [Self.row("open catalog + read version", .best, open, 0), Self.row("map + check snapshot on open (planes and lines are checked by the scan)", .best, map, viewCount)]
        print(WireJSON.line(BenchmarkRecord(views: viewCount, rows: rows)))
    }

    static func row(_ name: String, _ isa: InstructionSet, _ timing: RunTiming, _ hits: Int, threads: Int = 1) -> BenchmarkRecord.Row {
        BenchmarkRecord.Row(name: name, isa: "\(isa)", threads: threads, bestMilliseconds: timing.bestMs, medianMilliseconds: timing.medianMs, hits: hits)
    }
}
