import Search

/// Tells the server that the catalog may have changed (another process ran `glimpse
/// index` or `glimpse catalog remove`), so it checks the version and rebuilds its index
/// off to the side. SQLite is polled (``PollingCatalogChangeSource``); a PostgreSQL
/// store can push notifications (LISTEN/NOTIFY) through the same protocol.
public protocol CatalogChangeSource: Sendable {
    /// Calls `changed` whenever the catalog may have changed, until the task is
    /// cancelled (then returns). Spurious calls are harmless: the caller compares versions.
    func run(changed: @escaping @Sendable () async -> Void) async throws
}

/// Polls the store's catalog version (one tiny read) every `interval` and reports when it
/// differs from the last one seen.
public struct PollingCatalogChangeSource: CatalogChangeSource {
    /// The catalog.
    public let store: any EntityStore
    /// Time between two polls.
    public let interval: Duration

    /// Creates a poller.
    public init(store: any EntityStore, interval: Duration) {
        self.store = store
        self.interval = interval
    }

    public func run(changed: @escaping @Sendable () async -> Void) async throws {
        var last = try? store.catalogVersion()
        while !Task.isCancelled {
            try await Task.sleep(for: interval)
            // A failed read (database busy, file replaced) is retried at the next poll.
            guard let version = try? store.catalogVersion() else { continue }
            if version != last {
                last = version
                await changed()
            }
        }
    }
}
