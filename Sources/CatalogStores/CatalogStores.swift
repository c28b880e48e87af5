import Catalog
import Foundation
import PostgresStore
import SQLiteStore

/// Where a catalog is, as a user names it with `--db` or `GLIMPSE_DATABASE_URL`: a file
/// path (the embedded SQLite store) or a `postgres://` / `postgresql://` URL (the shared
/// PostgreSQL store).
public enum CatalogLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite catalog file.
    case sqlite(path: String)
    /// A PostgreSQL database, by connection URL.
    case postgres(url: String)

    /// Parses what the user typed: a `postgres://` or `postgresql://` URL, otherwise a path.
    public init(_ text: String) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// For messages: the path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): CatalogLocation.redacted(url)
        }
    }

    /// `url` with any password replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}

/// Opens the ``EntityStore`` a ``CatalogLocation`` names: the one factory the CLI and the
/// server use, so that neither knows which store it talks to.
public enum CatalogStores {
    /// Opens the catalog at `location` for `mode`.
    ///
    /// A PostgreSQL catalog created here gets `partitionCount` partitions (default 1), and
    /// an existing one must have that many when it is given; with `partition` the store
    /// loads only that partition's fingerprints (``CatalogPartition``). An SQLite catalog
    /// has no partitions: asking for more than one, or for a partition, is refused.
    ///
    /// - Throws: ``CatalogStoreError`` naming the location and why (missing, not a Glimpse
    ///   catalog, newer schema, unreachable server, partitions it does not have…).
    /// - Complexity: O(1) plus connection and migration time.
    public static func open(_ location: CatalogLocation, mode: CatalogAccessMode, partitionCount: Int? = nil,
                            partition: CatalogPartition? = nil) async throws(CatalogStoreError) -> any EntityStore {
        switch location {
        case .sqlite(let path):
            if partition != nil || (partitionCount ?? 1) != 1 {
                throw .cannotOpen(path, reason: "an SQLite catalog has no partitions; partitions need a PostgreSQL catalog (--db postgres://…)")
            }
            return try SQLiteEntityStore(path: path, mode: mode)
        case .postgres(let url):
            return try await PostgresEntityStore(url: url, mode: mode, partitionCount: partitionCount, partition: partition)
        }
    }

    /// Splits the PostgreSQL catalog at `location` into `count` partitions (offline: see
    /// ``PostgresEntityStore/repartition(count:)``).
    ///
    /// - Returns: the previous count and the new one.
    /// - Throws: ``CatalogStoreError`` (an SQLite catalog: ``CatalogStoreError/cannotOpen(_:reason:)``).
    /// - Complexity: O(reference images) rows copied once.
    public static func repartition(_ location: CatalogLocation, count: Int) async throws(CatalogStoreError) -> (previous: Int, count: Int) {
        switch location {
        case .sqlite(let path):
            throw .cannotOpen(path, reason: "an SQLite catalog has no partitions; partitions need a PostgreSQL catalog (--db postgres://…)")
        case .postgres(let url):
            let store = try await PostgresEntityStore(url: url, mode: .readWrite)
            do {
                let result = try await store.repartition(count: count)
                await store.close()
                return result
            } catch {
                await store.close()
                throw error
            }
        }
    }

    /// How many partitions the catalog `store` reads has (1 for SQLite).
    /// - Complexity: one small read.
    public static func partitionCount(of store: any EntityStore) async throws(CatalogStoreError) -> Int {
        guard let store = store as? PostgresEntityStore else { return 1 }
        return try await store.partitionCount()
    }
}
