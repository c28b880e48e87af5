import Catalog
import CatalogStores
import Foundation
import PostgresTestSupport
import Testing

/// The store kinds the conformance suite runs against.
enum StoreKind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// SQLite always; PostgreSQL when `scripts/pg-test-cluster.sh` exported a cluster URL,
    /// and always in CI (`CI=true`), where a missing cluster then FAILS the PostgreSQL cases.
    static var available: [StoreKind] {
        PostgresTestCluster.isEnabled ? [.sqlite, .postgres] : [.sqlite]
    }
}

/// One fresh, empty catalog of a kind, which a test can open (and reopen, as a new
/// process would) through the same factory the CLI uses.
struct TestCatalog: Sendable {
    var kind: StoreKind
    var location: CatalogLocation

    /// A new catalog: an SQLite file in a scratch folder, or a new database on the cluster.
    static func make(_ kind: StoreKind, folder: URL? = nil) async throws -> TestCatalog {
        switch kind {
        case .sqlite:
            let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return TestCatalog(kind: kind, location: .sqlite(path: folder.appendingPathComponent("catalog.sqlite").path))
        case .postgres:
            return TestCatalog(kind: kind, location: .postgres(url: try await TestDatabases.create()))
        }
    }

    /// Opens the catalog (read-write unless asked otherwise).
    func open(_ mode: CatalogAccessMode = .readWrite) async throws -> any EntityStore {
        try await CatalogStores.open(location, mode: mode)
    }
}
