import ArgumentParser
import Catalog
import Fingerprints
import Foundation
import Matching
import Search
import SyntheticData
#if canImport(Glibc)
import Glibc
#endif

/// `glimpse debug-capacity-index`: the scale issue's capacity catalog. Writes a visual-index
/// snapshot of N generated landmarks (``SyntheticCatalog``, 31 views each) merged with a real
/// catalog's (so real queries still find their answers), without a catalog database (ten
/// million images would need about 54 GB of SQLite beside the 38 GB snapshot), builds its
/// first stage, and times real queries through both. For `benchmarks/capacity.sh`; hidden
/// from `--help`: a measurement tool, not a user command.
struct CapacityIndexCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-capacity-index",
        abstract: "Build and time a snapshot of N generated landmarks plus a real catalog (benchmark tool).",
        discussion: """
            Writes FOLDER/capacity-N-sSEED.vindex (the snapshot: every view's codes, memory-mapped \
            by searches) and its first stage (.vindex.first, built with --lists or about 2√views \
            lists) unless the files there already belong to these landmarks, seed and the real \
            catalog's generation. With --queries, then maps both as `glimpse query` does and \
            times every image of the folder on one thread: through the first stage (--repeat runs \
            each, after a warm-up) and, for the first --exhaustive-queries of them, the \
            exhaustive scan (one run each, no warm-up: at ten million images each reads the \
            whole snapshot), with the first stage's agreement on those. Prints one JSON line \
            (BenchmarkRecord) with the process's peak resident set size (with --queries: before the \
            exhaustive scan, which touches every page of the snapshot); run the build and the \
            searches as two processes to see each one's.

            Example:
              glimpse debug-capacity-index --db eval.sqlite --landmarks 10000000 --folder /big
              glimpse debug-capacity-index --db eval.sqlite --landmarks 10000000 --folder /big --queries testdata/negatives
            """,
        shouldDisplay: false
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "Generated landmarks (31 views each).")
    var landmarks: Int

    @Option(help: "Seed of the generated landmarks.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Where the snapshot and its first stage are written and reused.", valueName: "folder"))
    var folder: String

    @Option(help: "First-stage lists, rounded up to a power of two (default: about 2√views).")
    var lists: Int?

    @Option(help: ArgumentHelp("Then time searching with every image of this folder.", valueName: "folder"))
    var queries: String?

    @Option(name: .customLong("repeat"), help: "Timed first-stage runs per query.")
    var runs: Int = 3

    @Option(help: "Queries also timed through the exhaustive scan (one run each), on which the first stage's agreement is measured.")
    var exhaustiveQueries: Int = 3

    @Option(help: "Only this instruction set (portable, avx2, avx512; default the best the CPU has).")
    var isa: String?

    @Option(help: ArgumentHelp("First-stage parameters (default: the default first stage without the cascade).",
                               valueName: "probes,radius,candidates[,inner probe factor[,budget[,unsure below[,unsure from]]]]"))
    var firstStageParameters: String?

    func validate() throws {
        guard landmarks >= 0 else { throw ValidationError("--landmarks must be 0 or more") }
        guard runs > 0, exhaustiveQueries > 0 else { throw ValidationError("--repeat and --exhaustive-queries must be positive") }
        if let lists, lists < 1 { throw ValidationError("--lists must be at least 1") }
        if let isa, InstructionSet(named: isa) == nil { throw ValidationError("--isa must be portable, avx2 or avx512") }
    }

    func run() async throws {
        let set = isa.flatMap(InstructionSet.init(named:)) ?? .best
        guard set.isSupported else { throw failure("debug-capacity-index: this CPU has no \(set)") }
        // Without the cascade unless asked: its queries match nothing but an exact copy, and
        // the cascade would send each to the exhaustive scan (seconds from disk at 10 M).
        let parameters = try firstStageParameters.map(CandidateIndex.SearchParameters.init(parsing:)) ?? CandidateIndex.SearchParameters(unsureScores: nil)
        let store = try await database.openExisting()
        let real: CatalogVersion
        do { real = try await store.catalogVersion() } catch { throw failure(error.description) }
        // The snapshot records which landmarks, seed and real catalog state it holds.
        let version = CatalogVersion(catalogID: "capacity-\(landmarks)-s\(seed)-\(real.catalogID)", generation: real.generation, tokenKey: real.tokenKey)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw failure("debug-capacity-index: cannot create \(shown(folder)): \(error.localizedDescription)")
        }
        let path = (folder as NSString).appendingPathComponent("capacity-\(landmarks)-s\(seed).vindex")
        var rows: [BenchmarkRecord.Row] = []

        // The snapshot, written from the generated stream unless a current one is there.
        var index: VisualIndex
        let mapStarted = ContinuousClock.now
        if case .loaded(let loaded) = VisualIndexSnapshot.load(path: path, expecting: version) {
            index = loaded
            rows.append(Self.duration("map the existing snapshot\(loaded.firstStage == nil ? "" : " and first stage") (sections checked on open)", ContinuousClock.now - mapStarted))
        } else {
            // The real catalog's fingerprints are read only when the snapshot is written.
            let contents: PreparedSearchIndex.Contents
            do { contents = try await PreparedSearchIndex.read(from: store) } catch { throw failure(error.description) }
            guard contents.version == real else { throw failure("debug-capacity-index: \(database.path) changed while it was read; run it again") }
            let synthetic = SyntheticCatalog(landmarks: landmarks, seed: seed)
            let started = ContinuousClock.now
            do {
                try VisualIndexSnapshot.write(synthetic.fingerprintStream(version: version, merging: contents.snapshot.entries),
                                              collections: contents.collections, to: path)
            } catch { throw failure(error.description) }
            rows.append(Self.duration("write the snapshot (generate twice, stream to disk)", ContinuousClock.now - started))
            guard case .loaded(let written) = VisualIndexSnapshot.load(path: path, expecting: version) else {
                throw failure("debug-capacity-index: \(shown(path)) does not load after it was written")
            }
            index = written
        }

        // The first stage, built from the mapped snapshot unless its file belongs to it.
        var built = false
        if index.firstStage == nil || lists != nil {
            built = true
            let started = ContinuousClock.now
            let stage: CandidateIndex
            do { stage = try CandidateIndex.build(from: index, lists: lists) } catch { throw failure("debug-capacity-index: \(error)") }
            rows.append(Self.duration("build the first stage (\(stage.listCount) lists, \(AvailableCores.count) threads)", ContinuousClock.now - started))
            do { try stage.write(to: CandidateIndex.path(forSnapshotAt: path)) } catch { throw failure(error.description) }
        }

        var firstStageRecord: BenchmarkRecord.FirstStage?
        var peakBeforeExhaustive: Int?
        var queryCount: Int?
        if built {
            // Searched from its file, as `glimpse query` and `glimpse serve` search it (the
            // mapping without a first stage is let go first, so its populated pages are not
            // held, and counted, twice).
            index = VisualIndex(version: version, entries: [])
            guard case .loaded(let mapped) = VisualIndexSnapshot.load(path: path, expecting: version) else {
                throw failure("debug-capacity-index: \(shown(path)) does not load after its first stage was written")
            }
            index = mapped
        }
        guard let stage = index.firstStage else { throw failure("debug-capacity-index: \(shown(path)) does not load with its first stage") }
        if let queries {
            let photos: [String]
            do { photos = try PhotoFolder(scanning: queries).photos } catch { throw failure(error.description) }
            var fingerprints: [Fingerprint] = []
            for photo in photos {
                do { fingerprints.append(try ImageFingerprinter.query.fingerprint(file: photo)) } catch { printError("glimpse: skipped query: \(error)") }
            }
            guard !fingerprints.isEmpty else { throw failure("debug-capacity-index: \(shown(queries)) has no query image that decodes") }
            queryCount = fingerprints.count
            let threshold = SimilarityScoring.defaultNoMatchThreshold
            let timer = QueryTimer(queries: fingerprints, runs: runs)
            let searched = index
            let (staged, answers) = try timer.timed("first stage, then exact scores\(parameters.unsureScores == nil ? " (no cascade)" : ""), \(fingerprints.count) real queries", set) { query in
                let outcome = try searched.search(query, minimumScore: threshold, threads: 1, using: set, strategy: .automatic(parameters))
                return (outcome.matches.map(\.landmarkID), outcome.comparedPairs)
            }
            rows.append(staged)
            // The first stage alone (candidates proposed, none scored): "mean_matched" is then
            // the mean number of candidates; the rest of the row above is exact re-scoring.
            let (alone, _) = try timer.timed("first stage alone (mean_matched: candidates), \(fingerprints.count) real queries", set) { query in
                (stage.candidates(for: query, minimumViewQuality: searched.minimumViewQuality, parameters: parameters, using: set).map { "\($0)" }, 0)
            }
            rows.append(alone)
            // What the first-stage searches kept resident, before the exhaustive scan maps
            // every page of the snapshot.
            peakBeforeExhaustive = Self.peakResidentBytes()
            let once = QueryTimer(queries: fingerprints, runs: 1)
            let (exact, exactAnswers) = try once.timed("exhaustive scan, the first \(min(exhaustiveQueries, fingerprints.count)) queries, one run each, no warm-up",
                                                       set, limit: exhaustiveQueries, warmUp: false) { query in
                let outcome = try searched.search(query, minimumScore: threshold, threads: 1, using: set, strategy: .exhaustive)
                return (outcome.matches.map(\.landmarkID), outcome.comparedPairs)
            }
            rows.append(exact)
            let agreement = QueryTimer.agreement(exact: exactAnswers, approximate: answers)
            firstStageRecord = BenchmarkRecord.FirstStage(
                lists: stage.listCount, bytes: stage.bytesUsed, probes: parameters.probes, innerProbeFactor: parameters.innerProbeFactor,
                radius: parameters.radius, maximumCandidates: parameters.maximumCandidates, top1Agreement: agreement.top1, top10Agreement: agreement.top10,
                unsureScores: parameters.unsureScores)
        }
        print(WireJSON.line(BenchmarkRecord(views: index.viewCount, landmarks: index.landmarkCount, indexBytes: index.bytesUsed, queries: queryCount,
                                            firstStage: firstStageRecord,
                                            peakResidentBytes: peakBeforeExhaustive ?? Self.peakResidentBytes(), rows: rows)))
    }

    /// A row for a one-off step: its wall-clock time as `best_ms`.
    static func duration(_ name: String, _ elapsed: Duration) -> BenchmarkRecord.Row {
        BenchmarkRecord.Row(name: name, bestMilliseconds: QueryTimer.milliseconds(elapsed))
    }

    /// This process's peak resident set size so far, in bytes (`getrusage`; Linux reports
    /// kilobytes). O(1).
    static func peakResidentBytes() -> Int? {
        #if canImport(Glibc)
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return nil }
        return Int(usage.ru_maxrss) * 1024
        #else
        return nil
        #endif
    }
}
