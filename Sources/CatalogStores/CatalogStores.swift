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
    /// - Throws: ``CatalogStoreError`` naming the location and why (missing, not a Glimpse
    ///   catalog, newer schema, unreachable server…).
    /// - Complexity: O(1) plus connection and migration time.
    public static func open(_ location: CatalogLocation, mode: CatalogAccessMode) async throws(CatalogStoreError) -> any EntityStore {
        switch location {
        case .sqlite(let path):
            return try SQLiteEntityStore(path: path, mode: mode)
        case .postgres(let url):
            return try await PostgresEntityStore(url: url, mode: mode)
        }
    }
}
