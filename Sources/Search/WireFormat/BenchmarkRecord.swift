/// The one JSON line of the benchmark tools `glimpse bench-scan`, `glimpse bench-search` and
/// `glimpse debug-capacity-index` (hidden commands that `benchmarks/` scripts read): what was
/// measured and one row per timing. Fields a tool does not measure are left out.
///
///     {"bytes_per_view", "check", "codes", "first_stage": {…}, "index_bytes", "kernel",
///      "landmarks", "peak_rss_bytes", "queries", "rows": [{"best_ms", "codes_per_second", "hits", "isa",
///      "mean_compared_pairs", "mean_matched", "median_ms", "name", "p50_ms", "p99_ms",
///      "threads"}], "views"}
///
/// Times are milliseconds rounded to the microsecond. Golden file: `testdata/wire/bench-search.json`.
public struct BenchmarkRecord: Sendable, Hashable, Codable {
    /// One timed measurement.
    public struct Row: Sendable, Hashable, Codable {
        /// What was timed, in words.
        public var name: String
        /// The instruction set it ran on (`avx512`, `avx2`, `portable`).
        public var isa: String?
        /// Threads it ran on.
        public var threads: Int?
        /// Fastest and median run, in milliseconds.
        public var bestMilliseconds: Double?, medianMilliseconds: Double?
        /// 50th and 99th percentile over the queries, in milliseconds.
        public var p50Milliseconds: Double?, p99Milliseconds: Double?
        /// Mean over the queries, in milliseconds (what one core's throughput follows).
        public var meanMilliseconds: Double?
        /// Matches (or hits) the timed operation found.
        public var hits: Int?
        /// Mean landmarks matched (or candidates proposed) per query.
        public var meanMatched: Double?
        /// Mean (query view, catalog view) pairs compared per query.
        public var meanComparedPairs: Int?
        /// Codes scanned per second at the best run.
        public var codesPerSecond: Double?

        enum CodingKeys: String, CodingKey {
            case name, isa, threads, hits
            case bestMilliseconds = "best_ms", medianMilliseconds = "median_ms", p50Milliseconds = "p50_ms", p99Milliseconds = "p99_ms"
            case meanMilliseconds = "mean_ms"
            case meanMatched = "mean_matched", meanComparedPairs = "mean_compared_pairs", codesPerSecond = "codes_per_second"
        }

        /// Creates a row; times are rounded to the microsecond.
        public init(name: String, isa: String? = nil, threads: Int? = nil, bestMilliseconds: Double? = nil, medianMilliseconds: Double? = nil,
                    p50Milliseconds: Double? = nil, p99Milliseconds: Double? = nil, meanMilliseconds: Double? = nil, hits: Int? = nil,
                    meanMatched: Double? = nil, meanComparedPairs: Int? = nil, codesPerSecond: Double? = nil) {
            self.name = name
            self.isa = isa
            self.threads = threads
            self.bestMilliseconds = bestMilliseconds.map(BenchmarkRecord.microsecond)
            self.medianMilliseconds = medianMilliseconds.map(BenchmarkRecord.microsecond)
            self.p50Milliseconds = p50Milliseconds.map(BenchmarkRecord.microsecond)
            self.p99Milliseconds = p99Milliseconds.map(BenchmarkRecord.microsecond)
            self.meanMilliseconds = meanMilliseconds.map(BenchmarkRecord.microsecond)
            self.hits = hits
            self.meanMatched = meanMatched.map { ($0 * 100).rounded() / 100 }
            self.meanComparedPairs = meanComparedPairs
            self.codesPerSecond = codesPerSecond.map { $0.rounded() }
        }
    }

    /// The first stage a catalog's search used, and how its answers agree with the exhaustive scan's.
    public struct FirstStage: Sendable, Hashable, Codable {
        /// Inverted lists, and resident bytes of the first stage.
        public var lists: Int, bytes: Int
        /// Search parameters (``CandidateIndex/SearchParameters``).
        public var probes: Int, innerProbeFactor: Int, radius: Int, maximumCandidates: Int
        /// Share of queries with the same first landmark; share of the exhaustive top 10 kept (0…1).
        public var top1Agreement: Double, top10Agreement: Double
        /// The cascade's unsure scores (``CandidateIndex/SearchParameters/unsureScores``) as
        /// `[from, below]`, and the share of queries (0…1) whose search scanned every view
        /// for it; `nil` without the cascade.
        public var unsureScores: [Double]?, scannedEveryView: Double?
        /// The first look (``CandidateIndex/SearchParameters/firstLook``) as `[probes,
        /// maximum candidates, sure score, scan-below score used at this catalog's size]`, and the share of queries (0…1)
        /// it answered; `nil` without one.
        public var firstLook: [Double]?, answeredAtFirstLook: Double?
        /// The first look's glance (``CandidateIndex/SearchParameters/FirstLook/glanceCandidates``)
        /// and the share of queries (0…1) it answered (within ``answeredAtFirstLook``); `nil`
        /// without one.
        public var glanceCandidates: Int?, answeredAtGlance: Double?

        enum CodingKeys: String, CodingKey {
            case lists, bytes, probes, radius
            case innerProbeFactor = "inner_probe_factor", maximumCandidates = "maximum_candidates"
            case top1Agreement = "top_1_agreement", top10Agreement = "top_10_agreement"
            case unsureScores = "unsure_scores", scannedEveryView = "scanned_every_view"
            case firstLook = "first_look", answeredAtFirstLook = "answered_at_first_look"
            case glanceCandidates = "glance_candidates", answeredAtGlance = "answered_at_glance"
        }

        /// Creates the first stage's figures.
        public init(lists: Int, bytes: Int, probes: Int, innerProbeFactor: Int, radius: Int, maximumCandidates: Int,
                    top1Agreement: Double, top10Agreement: Double, unsureScores: Range<Double>? = nil, scannedEveryView: Double? = nil,
                    firstLook: CandidateIndex.SearchParameters.FirstLook? = nil, answeredAtFirstLook: Double? = nil, answeredAtGlance: Double? = nil) {
            self.firstLook = firstLook.map { [Double($0.probes), Double($0.maximumCandidates), $0.sureScore, $0.scanBelow] }
            self.answeredAtFirstLook = answeredAtFirstLook.map { ($0 * 10_000).rounded() / 10_000 }
            self.glanceCandidates = firstLook.flatMap { $0.glanceCandidates > 0 ? $0.glanceCandidates : nil }
            self.answeredAtGlance = self.glanceCandidates == nil ? nil : answeredAtGlance.map { ($0 * 10_000).rounded() / 10_000 }
            self.unsureScores = unsureScores.map { [$0.lowerBound, $0.upperBound] }
            self.scannedEveryView = scannedEveryView.map { ($0 * 10_000).rounded() / 10_000 }
            self.lists = lists
            self.bytes = bytes
            self.probes = probes
            self.innerProbeFactor = innerProbeFactor
            self.radius = radius
            self.maximumCandidates = maximumCandidates
            self.top1Agreement = (top1Agreement * 10_000).rounded() / 10_000
            self.top10Agreement = (top10Agreement * 10_000).rounded() / 10_000
        }
    }

    /// Views and landmarks of the index searched; bytes of the index; bytes per view.
    public var views: Int?, landmarks: Int?, indexBytes: Int?, bytesPerView: Double?
    /// Real queries timed.
    public var queries: Int?
    /// Codes scanned (`bench-scan`), the kernel's instruction set, and a value that keeps the
    /// work from being optimised away.
    public var codes: Int?, kernel: String?, check: Int?
    /// The first stage, when the catalog has one.
    public var firstStage: FirstStage?
    /// The process's peak resident set size when the record was made, in bytes (anonymous
    /// memory and the pages of mapped files it touched).
    public var peakResidentBytes: Int?
    /// The timings.
    public var rows: [Row]

    enum CodingKeys: String, CodingKey {
        case views, landmarks, queries, codes, kernel, check, rows
        case indexBytes = "index_bytes", bytesPerView = "bytes_per_view", firstStage = "first_stage", peakResidentBytes = "peak_rss_bytes"
    }

    /// Creates a record.
    public init(views: Int? = nil, landmarks: Int? = nil, indexBytes: Int? = nil, bytesPerView: Double? = nil, queries: Int? = nil,
                codes: Int? = nil, kernel: String? = nil, check: Int? = nil, firstStage: FirstStage? = nil, peakResidentBytes: Int? = nil,
                rows: [Row]) {
        self.views = views
        self.landmarks = landmarks
        self.indexBytes = indexBytes
        self.bytesPerView = bytesPerView.map { ($0 * 10).rounded() / 10 }
        self.queries = queries
        self.codes = codes
        self.kernel = kernel
        self.check = check
        self.firstStage = firstStage
        self.peakResidentBytes = peakResidentBytes
        self.rows = rows
    }

    static func microsecond(_ milliseconds: Double) -> Double { (milliseconds * 1000).rounded() / 1000 }
}

/// The one JSON line of `glimpse bench-fingerprint`: decode (+ fingerprint) time of one file.
///
///     {"best_ms", "decode_only", "decoded_height", "decoded_width", "file", "isa",
///      "median_ms", "runs", "scale", "views"}
///
/// Golden file: `testdata/wire/bench-fingerprint.json`.
public struct FingerprintTimingRecord: Sendable, Hashable, Codable {
    /// The image file timed.
    public var file: String
    /// Median and fastest run, in milliseconds (rounded to the microsecond).
    public var medianMilliseconds: Double, bestMilliseconds: Double
    /// Timed runs.
    public var runs: Int
    /// The decode scale (`1/2`…), and the decoded size in pixels.
    public var scale: String, decodedWidth: Int, decodedHeight: Int
    /// Views fingerprinted (0 with ``decodeOnly``).
    public var views: Int
    /// Whether only the decode was timed.
    public var decodeOnly: Bool
    /// The best instruction set of this CPU (or what `GLIMPSE_ISA` allows).
    public var isa: String

    enum CodingKeys: String, CodingKey {
        case file, runs, scale, views, isa
        case medianMilliseconds = "median_ms", bestMilliseconds = "best_ms", decodedWidth = "decoded_width"
        case decodedHeight = "decoded_height", decodeOnly = "decode_only"
    }

    /// Creates a record; times are rounded to the microsecond.
    public init(file: String, medianMilliseconds: Double, bestMilliseconds: Double, runs: Int, scale: String, decodedWidth: Int,
                decodedHeight: Int, views: Int, decodeOnly: Bool, isa: String) {
        self.file = file
        self.medianMilliseconds = BenchmarkRecord.microsecond(medianMilliseconds)
        self.bestMilliseconds = BenchmarkRecord.microsecond(bestMilliseconds)
        self.runs = runs
        self.scale = scale
        self.decodedWidth = decodedWidth
        self.decodedHeight = decodedHeight
        self.views = views
        self.decodeOnly = decodeOnly
        self.isa = isa
    }
}
