import Foundation
import Logging
import PostgresNIO
import PostgresStore
import PostgresTestSupport

/// Creates databases on the test cluster (`GLIMPSE_TEST_POSTGRES_URL`), one per test, so
/// tests run in parallel without seeing each other.
enum TestDatabases {
    struct NoCluster: Error, CustomStringConvertible {
        var description: String {
            "no PostgreSQL test cluster: run the tests through scripts/test.sh (it starts one with scripts/pg-test-cluster.sh and exports GLIMPSE_TEST_POSTGRES_URL)"
        }
    }

    /// A new empty database on the cluster; its URL.
    static func create() async throws -> String {
        guard let admin = PostgresTestCluster.adminURL else { throw NoCluster() }
        let url = try PostgresConnectionURL(admin)
        let name = "glimpse_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withClient(url) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var components = try require(URLComponents(string: admin))
        components.path = "/" + name
        return try require(components.string)
    }

    /// Runs `body` with a client connected to `url`'s database.
    static func withClient<T: Sendable>(_ url: PostgresConnectionURL, _ body: (PostgresClient) async throws -> T) async throws -> T {
        let configuration = PostgresClient.Configuration(
            host: url.host ?? "127.0.0.1", port: url.port, username: url.user, password: url.password, database: url.database, tls: .disable)
        let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "glimpse.test"))
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        return try await body(client)
    }
}

/// `try #require` without Testing's macro (this file is shared support code).
private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw TestDatabases.NoCluster() }
    return value
}
