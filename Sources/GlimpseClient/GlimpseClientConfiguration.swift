/// How a ``GlimpseClient`` sends its requests: time-outs, retries and the admin token.
public struct GlimpseClientConfiguration: Sendable, Equatable {
    /// The longest one attempt may take, from sending the request to the last byte of the
    /// answer. Default 60 s. A search also carries its own `deadline` to the server.
    public var requestTimeout: Duration
    /// How many times a request refused with 429 (`too_many_requests`, `uploads_busy`) or 503
    /// (`not_ready`, `store_unavailable`) is sent again. Default 3. Admin operations
    /// (remove, undo) are never retried: they change the catalog.
    public var retries: Int
    /// The longest `Retry-After` the client waits for; a longer one ends the retries with the
    /// server's error. Default 10 s. Without `Retry-After` the client waits 0.25 s, doubling.
    public var maximumRetryDelay: Duration
    /// The bearer token of the server's `--admin-token-file`, sent with the admin operations only.
    public var adminToken: String?
    /// The most bytes of one answer the client reads (thumbnails, exports, pages). Default 64 MiB.
    public var maximumResponseBytes: Int

    /// A configuration; every parameter has the default documented on its property.
    /// - Complexity: O(1).
    public init(requestTimeout: Duration = .seconds(60), retries: Int = 3, maximumRetryDelay: Duration = .seconds(10),
                adminToken: String? = nil, maximumResponseBytes: Int = 64 << 20) {
        self.requestTimeout = requestTimeout
        self.retries = max(0, retries)
        self.maximumRetryDelay = maximumRetryDelay
        self.adminToken = adminToken
        self.maximumResponseBytes = max(1, maximumResponseBytes)
    }
}
