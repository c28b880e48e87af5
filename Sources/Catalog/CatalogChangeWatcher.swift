/// Tells a reader of a catalog (a `glimpse serve` replica) when it changed: at once through
/// the store's push notifications when it has them (PostgreSQL `LISTEN`/`NOTIFY`, see
/// ``EntityStore/changeNotifications()``), and by polling ``EntityStore/catalogVersion()``
/// every ``pollInterval`` as the fallback (SQLite, a lost notification connection, a
/// notification missed while reconnecting). A lost connection is re-established every
/// ``reconnectDelay``; a failed poll is retried at the next one.
public struct CatalogChangeWatcher: Sendable {
    /// The catalog watched.
    public let store: any EntityStore
    /// Time between two version polls.
    public let pollInterval: Duration
    /// Time before listening again after the notification stream ended.
    public let reconnectDelay: Duration

    /// Creates a watcher.
    public init(store: any EntityStore, pollInterval: Duration = .seconds(2), reconnectDelay: Duration = .seconds(1)) {
        self.store = store
        self.pollInterval = pollInterval
        self.reconnectDelay = reconnectDelay
    }

    /// Calls `changed` with the new version each time the catalog's version differs from
    /// the last one seen, until the task is cancelled. Calls never overlap.
    ///
    /// - Parameters:
    ///   - initial: the version the caller already knows (a change after it is reported
    ///     even if it landed before this watcher started listening); `nil` starts from the
    ///     version when called.
    /// - Complexity: one small read per poll and per notification.
    public func run(startingFrom initial: CatalogVersion? = nil, changed: @escaping @Sendable (CatalogVersion) async -> Void) async {
        var last = initial
        if last == nil { last = try? await store.catalogVersion() }
        let tracker = VersionTracker(last: last, changed: changed)
        let store = self.store, pollInterval = self.pollInterval, reconnectDelay = self.reconnectDelay
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: pollInterval) } catch { return }
                    await tracker.check(store)
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    guard let notifications = store.changeNotifications() else { return }
                    do {
                        // The first element (-1) says it is listening: check what may have
                        // changed while it was not.
                        for try await _ in notifications { await tracker.check(store) }
                    } catch {}
                    do { try await Task.sleep(for: reconnectDelay) } catch { return }
                }
            }
            await group.waitForAll()
        }
    }
}

/// The last version seen, and the callback for a new one (one check at a time).
private actor VersionTracker {
    var last: CatalogVersion?
    let changed: @Sendable (CatalogVersion) async -> Void

    init(last: CatalogVersion?, changed: @escaping @Sendable (CatalogVersion) async -> Void) {
        self.last = last
        self.changed = changed
    }

    func check(_ store: any EntityStore) async {
        guard let version = try? await store.catalogVersion(), version != last else { return }
        last = version
        await changed(version)
    }
}
