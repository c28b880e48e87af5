import Foundation

/// Creates databases on the test cluster.
enum TestDatabases {
    struct NoCluster: Error, CustomStringConvertible {
        var description: String {
            "no PostgreSQL test cluster: run the tests through scripts/test.sh (it starts one with scripts/pg-test-cluster.sh and exports GLIMPSE_TEST_POSTGRES_URL)"
        }
    }

    /// A new empty database on the cluster; its URL.
    static func create() async throws -> String {
        guard TestCluster.adminURL != nil else { throw NoCluster() }
        throw NoCluster()
    }
}
