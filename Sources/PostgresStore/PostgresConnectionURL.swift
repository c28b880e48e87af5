import Foundation
import PostgresNIO

/// A `postgres://user[:password]@host[:port]/dbname[?host=/socket/folder]` URL, parsed into
/// the client configuration. TLS is off (the catalog server is on a private network or
/// loopback); `?host=` selects a Unix socket folder instead of TCP.
public struct PostgresConnectionURL: Sendable, Hashable, CustomStringConvertible {
    /// The user name.
    public var user: String
    /// The password, if the URL has one.
    public var password: String?
    /// TCP host, or `nil` with ``socketFolder``.
    public var host: String?
    /// TCP port or socket number (default 5432).
    public var port: Int
    /// The database name.
    public var database: String
    /// A folder holding the server's Unix socket (`?host=/folder`), if any.
    public var socketFolder: String?

    /// Parses `text`.
    ///
    /// - Throws: ``CatalogStoreError``-compatible reason text when it is not a usable URL.
    public init(_ text: String) throws(PostgresURLError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresURLError(reason: "not a postgres:// URL")
        }
        user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? ""
        password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        port = components.port ?? 5432
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.removingPercentEncoding ?? path
        socketFolder = components.queryItems?.first { $0.name == "host" }?.value
        let hostName = components.host.flatMap { $0.isEmpty ? nil : $0 }
        host = socketFolder == nil ? (hostName ?? "127.0.0.1") : nil
        guard !user.isEmpty else { throw PostgresURLError(reason: "no user name (postgres://USER@host:port/dbname)") }
        guard !database.isEmpty else { throw PostgresURLError(reason: "no database name (postgres://user@host:port/DBNAME)") }
    }

    /// The URL without its password, for messages.
    public var description: String {
        let endpoint = socketFolder.map { "/\(database)?host=\($0)" } ?? "\(host ?? ""):\(port)/\(database)"
        let credentials = password == nil ? user : "\(user):***"
        return socketFolder == nil ? "postgres://\(credentials)@\(endpoint)" : "postgres://\(credentials)@\(endpoint)"
    }

    /// The configuration of a single connection (opening checks).
    var connectionConfiguration: PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketFolder {
            configuration = .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host ?? "127.0.0.1", port: port, username: user, password: password, database: database, tls: .disable)
        }
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// The client configuration.
    var configuration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketFolder {
            configuration = .init(unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host ?? "127.0.0.1", port: port, username: user, password: password, database: database, tls: .disable)
        }
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = 8
        configuration.options.minimumConnections = 0
        return configuration
    }
}

/// Why a PostgreSQL URL could not be used.
public struct PostgresURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with it.
    public var reason: String
    /// One line for people, naming what and why.
    public var description: String { reason }
}
