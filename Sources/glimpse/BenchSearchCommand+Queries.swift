import Catalog
import Fingerprints
import Foundation
import Matching
import Search
import SQLiteStore

extension BenchSearchCommand {
    /// Rows for real queries against a catalog on disk (`--db PATH --queries FOLDER`): every
    /// image of the folder fingerprinted once with the default query layout, then searched
    /// `--repeat` times each on one thread (exact scan, default threshold; again without the
    /// query's tilt views) per instruction set, then with the catalog's first stage when it has one (with the
    /// cascade of the parameters, the same without its first look or without the first look's
    /// scan-below score, and without the cascade); each row gives the median and
    /// the 99th percentile over every (query, run), the mean number of landmarks matched and
    /// of pairs compared, with the catalog's landmarks, views and index bytes (the snapshot's,
    /// mapped as `glimpse query` maps it) and the first stage's size and agreement with the
    /// exhaustive scan (same first answer; share of its top 10 kept).
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
        let sets = isa.flatMap(InstructionSet.init(named:)).map { [$0] }
            ?? InstructionSet.allCases.filter(\.isSupported)
        let threshold = SimilarityScoring.defaultNoMatchThreshold
        let timer = QueryTimer(queries: queries, runs: runs)
        var rows: [BenchmarkRecord.Row] = []
        var exactAnswers: [[String]] = []
        for set in sets.reversed() {
            let (row, answers) = try timer.timed("exact search, \(queries.count) real queries, default query layout", set) { query in
                let outcome = try index.search(query, minimumScore: threshold, threads: 1, using: set, strategy: .exhaustive)
                return (outcome.matches.map(\.landmarkID), outcome.comparedPairs)
            }
            exactAnswers = answers
            rows.append(row)
            // The same queries without their tilt views (the last ones): what those cost.
            let tiltViews = FingerprintViewLayout.query.tilts.count
            let keptViews = FingerprintViewLayout.query.withoutTilts.viewCount
            let (upright, _) = try timer.timed("without tilt views: exact search, \(queries.count) real queries, \(tiltViews) fewer views", set) { query in
                let outcome = try index.search(Fingerprint(views: Array(query.views.prefix(keptViews)), layoutVersion: query.layoutVersion),
                                               minimumScore: threshold, threads: 1, using: set, strategy: .exhaustive)
                return (outcome.matches.map(\.landmarkID), outcome.comparedPairs)
            }
            rows.append(upright)
        }
        var firstStage: BenchmarkRecord.FirstStage?
        if let stage = index.firstStage {
            let parameters = try firstStageParameters.map(CandidateIndex.SearchParameters.init(parsing:)) ?? CandidateIndex.SearchParameters()
            var answers: [[String]] = []
            // Searches the cascade sent to the exhaustive scan, of all those timed (a query
            // goes the same way every run).
            var searches = 0, scannedWhole = 0, atFirstLook = 0, atGlance = 0
            for set in sets.reversed() {
                let (row, found) = try timer.timed("first stage, then exact scores, \(queries.count) real queries", set) { query in
                    let outcome = try index.search(query, minimumScore: threshold, threads: 1, using: set, strategy: .automatic(parameters))
                    searches += 1
                    if outcome.scannedEveryView { scannedWhole += 1 }
                    if outcome.answeredAtFirstLook { atFirstLook += 1 }
                    if outcome.answeredAtGlance { atGlance += 1 }
                    return (outcome.matches.map(\.landmarkID), outcome.comparedPairs)
                }
                answers = found
                rows.append(row)
                // Variants of the same parameters, timed alike: the cascade without its first
                // look (what the first look saves) and the first stage without the cascade
                // (what the candidates alone cost).
                func variant(_ name: String, _ change: (inout CandidateIndex.SearchParameters) -> Void) throws {
                    var changed = parameters
                    change(&changed)
                    let (row, _) = try timer.timed("\(name), \(queries.count) real queries", set) { query in
                        let outcome = try index.search(query, minimumScore: threshold, threads: 1, using: set, strategy: .automatic(changed))
                        return (outcome.matches.map(\.landmarkID), outcome.comparedPairs)
                    }
                    rows.append(row)
                }
                if parameters.unsureScores != nil, let look = parameters.firstLook {
                    try variant("cascade without the first look") { $0.firstLook = nil }
                    if look.glanceCandidates > 0 {
                        try variant("cascade without the first look's glance") { $0.firstLook?.glanceCandidates = 0 }
                    }
                    if look.scanBelow(forViews: index.viewCount) > 0 {
                        try variant("cascade without the first look's scan-below") { $0.firstLook?.scanBelow = 0 }
                    } else if look.scanBelow > 0 {
                        // Past the size where the default stops using it: what it would do here.
                        try variant("cascade with the first look's scan-below at any size") { $0.firstLook?.scanBelowMaximumViews = .max }
                    }
                }
                if parameters.unsureScores != nil {
                    try variant("first stage without the cascade, then exact scores") { $0.unsureScores = nil }
                }
                // The first stage alone (candidates proposed, none scored): "mean_matched" is
                // then the mean number of candidates.
                let (alone, _) = try timer.timed("first stage alone (mean_matched: candidates), \(queries.count) real queries", set) { query in
                    (stage.candidates(for: query, minimumViewQuality: index.minimumViewQuality, parameters: parameters, using: set).map { "\($0)" }, 0)
                }
                rows.append(alone)
            }
            // Agreement with the exhaustive scan: the same first answer (or none for both),
            // and the share of the exhaustive top 10 the first stage also returns; with the
            // cascade, the share of queries it sent to the exhaustive scan.
            let agreement = QueryTimer.agreement(exact: exactAnswers, approximate: answers)
            let scannedEveryView = parameters.unsureScores == nil ? nil : Double(scannedWhole) / Double(max(searches, 1))
            firstStage = BenchmarkRecord.FirstStage(
                lists: stage.listCount, bytes: stage.bytesUsed, probes: parameters.probes, innerProbeFactor: parameters.innerProbeFactor,
                radius: parameters.radius, maximumCandidates: parameters.maximumCandidates,
                top1Agreement: agreement.top1, top10Agreement: agreement.top10, unsureScores: parameters.unsureScores,
                scannedEveryView: scannedEveryView, firstLook: parameters.unsureScores == nil ? nil : parameters.firstLook.map { look in
                    // The scan-below score this catalog's searches use (0 past its size limit).
                    var used = look
                    used.scanBelow = look.scanBelow(forViews: index.viewCount)
                    return used
                },
                answeredAtFirstLook: parameters.unsureScores == nil || parameters.firstLook == nil ? nil : Double(atFirstLook) / Double(max(searches, 1)),
                answeredAtGlance: Double(atGlance) / Double(max(searches, 1)))
        }
        print(WireJSON.line(BenchmarkRecord(views: index.viewCount, landmarks: index.landmarkCount, indexBytes: index.bytesUsed,
                                            queries: queries.count, firstStage: firstStage, rows: rows)))
    }
}
