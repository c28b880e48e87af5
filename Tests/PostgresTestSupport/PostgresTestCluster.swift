import Foundation

/// The throwaway PostgreSQL cluster the tests run on (`scripts/pg-test-cluster.sh`, started
/// by `scripts/test.sh`, which exports its superuser URL as `GLIMPSE_TEST_POSTGRES_URL`),
/// reached through `psql` (installed with PostgreSQL). Shared by the CLI, server and store
/// conformance tests.
public enum PostgresTestCluster {
    /// `GLIMPSE_TEST_POSTGRES_URL`: a superuser URL to the cluster's `postgres` database;
    /// `nil` when unset or empty.
    public static var adminURL: String? {
        ProcessInfo.processInfo.environment["GLIMPSE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether this is a CI run (`CI=true`): there a missing cluster fails the PostgreSQL
    /// tests instead of skipping them.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Whether the PostgreSQL suites run: a cluster is there, or CI requires one.
    public static var isEnabled: Bool { adminURL != nil || isCI }

    /// A test-support failure: what went wrong, for the test's message.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String

        /// A failure saying `description`.
        public init(description: String) { self.description = description }
    }

    /// The URL of database `name` on the cluster of `admin` (same user, host and port).
    public static func url(_ admin: String, database name: String) throws(Failure) -> String {
        guard var components = URLComponents(string: admin) else { throw Failure(description: "bad URL \(admin)") }
        components.path = "/" + name
        return components.string ?? admin
    }

    /// A new database named `prefix` and a random suffix, empty or a copy of database
    /// `template`; its URL. Fails when there is no cluster.
    /// - Complexity: one `psql` process (plus the copy of `template`).
    public static func createDatabase(prefix: String, template: String? = nil) throws -> String {
        guard let admin = adminURL else { throw Failure(description: "no PostgreSQL test cluster (GLIMPSE_TEST_POSTGRES_URL); run scripts/test.sh") }
        let name = prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try psql(admin, "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
        return try url(admin, database: name)
    }

    /// Runs one statement with `psql` on database `url` and returns its output (tuples
    /// only, unaligned, surrounding white space trimmed); fails with psql's message.
    /// - Complexity: one `psql` process.
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-v", "ON_ERROR_STOP=1", "-tAc", sql]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "psql: \(String(decoding: error, as: UTF8.self))") }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
