import Search

/// Everything `glimpse serve` can be told: where to listen, which catalog, the limits.
/// Every limit has a default a demanding user would accept on a 2-core machine.
public struct ServerConfiguration: Sendable {
    /// Address to bind (default loopback only).
    public var host: String
    /// TCP port; 0 picks a free one (tests).
    public var port: Int
    /// The catalog, for messages and logs: an SQLite file path or a `postgres://` URL
    /// without its password (the store itself is opened by the caller).
    public var catalog: String
    /// The admin bearer token (from `--admin-token-file`); `nil` disables the admin endpoints.
    public var adminToken: String?
    /// The visual-index snapshot: beside an SQLite catalog (``VisualIndexSnapshot/path(forCatalogAt:)``)
    /// or where `--snapshot` says (a PostgreSQL replica's own copy). When it is of this
    /// catalog and current, or behind by a change log small enough to apply, a full load maps
    /// it, with its first stage, instead of reading every fingerprint; `nil` (a PostgreSQL
    /// catalog without one) always builds in memory. After a full build from the catalog
    /// (no usable snapshot, or a compaction) a replica saves its index here in the background
    /// (a replica of one partition, that partition's), so its next start maps it.
    public var snapshotPath: String?
    /// Largest request body, in bytes, checked while the body streams in (413 above it).
    public var maxBodyBytes: Int
    /// Largest image accepted by `POST /v1/search`, in pixels (checked from its header).
    public var maxPixels: Int
    /// Searches decoded and scanned at once; one more is answered 429 at once (no queue).
    public var maxConcurrentSearches: Int
    /// Seconds a connection may stay idle (no bytes either way) before it is closed.
    public var idleTimeoutSeconds: Int
    /// How often the catalog generation is checked for changes, in milliseconds.
    public var reloadPollMilliseconds: Int
    /// Seconds in-flight requests get to finish after SIGTERM/SIGINT.
    public var shutdownGraceSeconds: Int
    /// Complete rankings kept per index for "more results" pages.
    public var rankingCacheCapacity: Int
    /// Where request traces go (default: nowhere, at no measurable cost).
    public var tracing: RequestTracing = .disabled
    /// Deadline of a search when the request names none, in milliseconds.
    public var defaultDeadlineMilliseconds: Int
    /// Most simultaneous connections accepted.
    public var maxConnections: Int
    /// Host names (without port) a request's `Host` may carry, besides the bound address;
    /// empty: any, unless the server listens on a loopback address, where only loopback
    /// names are accepted (a page on another site, its name rebound to 127.0.0.1, must not
    /// read the catalog's file paths). See ``HostPolicy``.
    public var allowedHosts: [String] = []
    /// How request bodies must arrive (408 when they stall or crawl) and how many body
    /// bytes all requests may hold at once (429 beyond).
    public var upload = UploadPolicy()
    /// The partition this replica holds and how it reaches the others' replicas (the store
    /// must then be opened for that partition); `nil`: it serves the whole catalog.
    public var cluster: ClusterConfiguration?
    /// Whether an index built from the catalog gets a first stage (``CandidateIndex``):
    /// ``FirstStagePolicy/automatic`` (by size, or when the index it replaces had one) or
    /// ``FirstStagePolicy/always`` (whatever the size). A mapped snapshot keeps the first
    /// stage `glimpse index` wrote beside it.
    public var firstStage: FirstStagePolicy = .automatic

    /// Creates a configuration with the documented defaults.
    public init(host: String = "127.0.0.1", port: Int = 8080, catalog: String = "glimpse.sqlite", adminToken: String? = nil,
                maxBodyBytes: Int = 32 << 20, maxPixels: Int = 50_000_000, maxConcurrentSearches: Int = 8,
                idleTimeoutSeconds: Int = 30, reloadPollMilliseconds: Int = 250, shutdownGraceSeconds: Int = 10,
                rankingCacheCapacity: Int = 256, defaultDeadlineMilliseconds: Int = 500, maxConnections: Int = 512,
                snapshotPath: String? = nil) {
        self.snapshotPath = snapshotPath
        self.host = host
        self.port = port
        self.catalog = catalog
        self.adminToken = adminToken
        self.maxBodyBytes = maxBodyBytes
        self.maxPixels = maxPixels
        self.maxConcurrentSearches = maxConcurrentSearches
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.reloadPollMilliseconds = reloadPollMilliseconds
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.rankingCacheCapacity = rankingCacheCapacity
        self.defaultDeadlineMilliseconds = defaultDeadlineMilliseconds
        self.maxConnections = maxConnections
    }
}
