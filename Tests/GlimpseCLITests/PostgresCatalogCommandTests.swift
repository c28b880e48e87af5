import Foundation
import GlimpseProcessTesting
import PostgresTestSupport
import Testing

/// The real `glimpse` against the throwaway PostgreSQL cluster of scripts/pg-test-cluster.sh
/// (`GLIMPSE_TEST_POSTGRES_URL`): a `kill -9` during an index run leaves the previous
/// catalog and a re-run finishes; two processes creating one catalog at once migrate it
/// once. In CI (`CI=true`) a missing cluster fails these tests.
@Suite("PostgreSQL catalogs", .enabled(if: PostgresTestCluster.isEnabled))
struct PostgresCatalogCommandTests {
    @Test func killingAnIndexRunLeavesThePreviousCatalogAndARerunFinishes() throws {
        let db = try PostgresTestCluster.createDatabase(prefix: "glimpse_cli_")
        let first = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        try #require(first.status == 0, "\(first.stderr)")
        let before = try Glimpse.run(["catalog", "list", "--json", "--db", db]).stdout
        let removalsBefore = try Glimpse.run(["catalog", "list", "--removed", "--json", "--db", db]).stdout

        // A different source whose images are all new content: fingerprinting takes a while.
        let folder = try Glimpse.scratchFolder("pg-kill")
        let copies = try DistinctImageCopies.write(from: [Glimpse.testdata("catalog/food")], to: folder, variants: 4)
        try #require(copies >= 16)

        var killed = 0
        for delay in [0.4, 0.9, 1.6] {
            let binary = try #require(Glimpse.binary)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["index", folder, "--db", db, "--jobs", "1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            guard process.isRunning else { break }  // finished before the kill: nothing to check
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // `isRunning` trails the exit by the time Foundation reaps the child: a run that
            // finished just before the signal is a completed run, not a killed one.
            guard process.terminationReason == .uncaughtSignal else { break }
            killed += 1
            #expect(try Glimpse.run(["catalog", "list", "--json", "--db", db]).stdout == before, "after kill -9 at \(delay) s")
            #expect(try Glimpse.run(["catalog", "list", "--removed", "--json", "--db", db]).stdout == removalsBefore)
        }
        #expect(killed > 0, "no run was still going when killed")

        let rerun = try Glimpse.run(["index", folder, "--db", db])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let after = try Glimpse.run(["catalog", "list", "--db", db])
        #expect(after.stdout.contains("\(copies) landmarks"), "\(after.stdout.suffix(200))")
        #expect(try Glimpse.run(["catalog", "undo", "--db", db]).status == 0, "the landmarks gone from the source come back")
        #expect(try Glimpse.run(["catalog", "list", "--db", db]).stdout.contains("\(copies + 46) landmarks"))
    }

    @Test func twoProcessesCreatingOneCatalogAtOnceMigrateItOnce() throws {
        let db = try PostgresTestCluster.createDatabase(prefix: "glimpse_cli_")
        let binary = try #require(Glimpse.binary)
        let processes = try (0..<2).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["index", Glimpse.testdata("catalog-fixtures/manifest/catalog.json"), "--db", db]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(try PostgresTestCluster.psql(db, "SELECT string_agg(name, ',' ORDER BY name) FROM glimpse_migrations") == "v1-catalog,v2-copy-keys,v3-partitions,v4-cluster-members,v5-quality-index")
        #expect(try PostgresTestCluster.psql(db, "SELECT count(*) FROM catalog_meta WHERE key = 'catalog_id'") == "1")
        #expect(try PostgresTestCluster.psql(db, "SELECT count(*) FROM landmark") == "3")
    }

    @Test func readCommandsRefuseADatabaseThatIsNotACatalogAndWriteNothing() throws {
        let db = try PostgresTestCluster.createDatabase(prefix: "glimpse_cli_")
        let list = try Glimpse.run(["catalog", "list", "--db", db])
        #expect(list.status == 1)
        #expect(list.errorLines.count == 1 && list.errorLines[0].contains("not a Glimpse catalog (an empty database"), "\(list.stderr)")
        #expect(try PostgresTestCluster.psql(db, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'") == "0")
    }
    /// Read commands (and `glimpse serve` without admin endpoints) open a PostgreSQL catalog
    /// read-only: they all work for a role that may only SELECT (in read-only transactions,
    /// without temporary tables), and the catalog's tables are the same afterwards. Commands
    /// that change the catalog say in one line that they cannot.
    @Test func readCommandsWorkForARoleThatMayOnlyReadAndChangeNothing() async throws {
        let db = try PostgresTestCluster.createDatabase(prefix: "glimpse_cli_")
        let indexing = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        try #require(indexing.status == 0, "\(indexing.stderr)")
        let reader = try PostgresCluster.createReadOnlyRole(on: db)
        let before = try PostgresCluster.contentDigest(db)

        let folder = try Glimpse.scratchFolder("pg-readonly")
        let commands: [[String]] = [
            ["catalog", "list"],
            ["catalog", "list", "--removed", "--json"],
            ["open", "landmark:food/apricot"],
            ["export", "landmark:food/apricot", "--as", "text"],
            ["query", Glimpse.testdata("catalog/food/apricot.jpg"), "--json"],
            ["match", Glimpse.testdata("catalog/food"), "--out", folder + "/matches.jsonl"],
        ]
        for command in commands {
            let run = try Glimpse.run(command + ["--db", reader])
            #expect(run.status == 0, "\(command): \(run.stderr)")
        }
        let query = try Glimpse.run(["query", Glimpse.testdata("catalog/food/apricot.jpg"), "--json", "--db", reader])
        #expect(query.stdout.contains("\"food/apricot\""), "\(query.stdout.prefix(300))")

        // glimpse serve (no admin token) answers searches for that role too.
        let served = try await ServedGlimpse(catalog: reader)
        defer { served.stop() }
        let ready = try await served.get("/readyz")
        #expect(ready.status == 200, "\(ready.text.prefix(300))")
        let entity = try await served.get("/v1/landmarks/food%2Fapricot")
        #expect(entity.status == 200 && entity.text.contains("Apricot"), "\(entity.text.prefix(300))")

        // Changes are refused in one line, by the database.
        for command in [["catalog", "remove", "landmark:food/apricot", "--archive"], ["catalog", "undo"],
                        ["index", Glimpse.testdata("catalog/manifest.json")]] {
            let run = try Glimpse.run(command + ["--db", reader])
            // (index prints its progress on stderr too; one error line.)
            #expect(run.status != 0 && run.errorLines.filter { $0.hasPrefix("glimpse:") }.count == 1, "\(command): \(run.stderr)")
        }
        #expect(try PostgresCluster.contentDigest(db) == before)
    }

    @Test func partitionsAreChosenAtCreationChangedByRepartitionAndCheckedByServe() throws {
        let db = try PostgresTestCluster.createDatabase(prefix: "glimpse_cli_")
        let created = try Glimpse.run(["index", Glimpse.testdata("catalog-fixtures/manifest/catalog.json"), "--db", db, "--partitions", "3"])
        try #require(created.status == 0, "\(created.stderr)")
        #expect(try PostgresTestCluster.psql(db, "SELECT value FROM catalog_meta WHERE key = 'partitions'") == "3")
        // Another count on an existing catalog is refused, naming the way to change it.
        let other = try Glimpse.run(["index", Glimpse.testdata("catalog-fixtures/manifest/catalog.json"), "--db", db, "--partitions", "2"])
        #expect(other.status == 1 && other.stderr.contains("the catalog has 3 partitions, not 2") && other.stderr.contains("glimpse catalog repartition"),
                "\(other.stderr)")
        let moved = try Glimpse.run(["catalog", "repartition", "--partitions", "2", "--db", db])
        #expect(moved.status == 0 && moved.stdout.contains("3 → 2 partitions"), "\(moved.stdout)\(moved.stderr)")
        #expect(try Glimpse.run(["catalog", "repartition", "--partitions", "2", "--db", db]).stdout.contains("already 2 partitions"))
        #expect(try Glimpse.run(["catalog", "list", "--db", db]).stdout.contains("3 landmarks"), "nothing lost")
        // A replica of a partition the catalog does not have is refused before it listens.
        let token = try Glimpse.scratchFolder("cluster-token") + "/token"
        try "cli-tests-cluster-token-0123456789".write(toFile: token, atomically: true, encoding: .utf8)
        let serve = try Glimpse.run(["serve", "--db", db, "--port", "0", "--partition", "1/3", "--cluster-token-file", token])
        #expect(serve.status == 1 && serve.stderr.contains("partition 1/3 asked, but the catalog has 2 partitions"), "\(serve.stderr)")
        let noToken = try Glimpse.run(["serve", "--db", db, "--partition", "1/2"])
        #expect(noToken.status == 1 && noToken.stderr.contains("needs --cluster-token-file"), "\(noToken.stderr)")
        let sqlite = try Glimpse.scratchFolder("repartition-sqlite") + "/catalog.sqlite"
        let refused = try Glimpse.run(["catalog", "repartition", "--partitions", "2", "--db", sqlite])
        #expect(refused.status == 1 && refused.stderr.contains("an SQLite catalog has no partitions"), "\(refused.stderr)")
    }

    @Test func aReplicaMapsTheSnapshotIndexWroteAndBuildsFromTheCatalogWhenItIsNotThisCatalogs() async throws {
        let db = try PostgresTestCluster.createDatabase(prefix: "glimpse_cli_")
        let folder = try Glimpse.scratchFolder("pg-snapshot")
        let snapshot = folder + "/replica.vindex"
        let indexed = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db, "--snapshot", snapshot])
        try #require(indexed.status == 0, "\(indexed.stderr)")
        #expect(FileManager.default.fileExists(atPath: snapshot), "index writes the snapshot where --snapshot says")
        // The same answers with and without it.
        let query = [Glimpse.testdata("samples/screenshot-hurricane-ridge.png"), "--region", "4,211,712,332", "--json", "--db", db]
        let mapped = try Glimpse.run(["query"] + query + ["--snapshot", snapshot])
        let built = try Glimpse.run(["query"] + query)
        #expect(mapped.status == 0 && mapped.stdout.contains("landmarks/hurricane-ridge"), "\(mapped.stdout.prefix(300))\(mapped.stderr)")
        #expect(Self.withoutTimings(mapped.stdout) == Self.withoutTimings(built.stdout))

        // A replica maps it, then applies a removal made after it was written.
        let served = try await ServedGlimpse(catalog: db, extra: ["--snapshot", snapshot, "--reload-poll-ms", "50"])
        defer { served.stop() }
        #expect(try await served.metric("glimpse_index_mapped") == 1, "the replica started from the snapshot")
        let removed = try Glimpse.run(["catalog", "remove", "landmark:food/apricot", "--archive", "--db", db])
        try #require(removed.status == 0, "\(removed.stderr)")
        var gone = false
        for _ in 0..<100 where !gone {
            gone = try await served.get("/v1/landmarks/food%2Fapricot").status == 404
            if !gone { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(gone, "the removal reached the replica")
        #expect(try await served.metric("glimpse_index_mapped") == 1, "applied to the mapped snapshot, not rebuilt")

        // A snapshot of another catalog is never used: the replica builds from its own.
        let other = try PostgresTestCluster.createDatabase(prefix: "glimpse_cli_")
        try #require(try Glimpse.run(["index", Glimpse.testdata("catalog-fixtures/manifest/catalog.json"), "--db", other]).status == 0)
        let stranger = try await ServedGlimpse(catalog: other, extra: ["--snapshot", snapshot])
        defer { stranger.stop() }
        #expect(try await stranger.metric("glimpse_index_mapped") == 0)
        let landmarks = try await stranger.metric("glimpse_index_landmarks")
        #expect(landmarks <= 3, "its own three landmarks at most (those with a searchable view), not the snapshot's 46: \(landmarks)")
        // (A replica of one partition and a whole catalog's snapshot: PartitionSnapshotTests.)
    }

    /// A `query --json` line without its timings (milliseconds differ between runs).
    static func withoutTimings(_ text: String) -> String {
        text.replacingOccurrences(of: #""[a-z_]*_ms":[0-9.]+"#, with: "", options: .regularExpression)
    }
}

/// What the CLI tests do on the test cluster beyond ``PostgresTestCluster``.
enum PostgresCluster {
    /// A new role that may only read the catalog in `db` (SELECT on its tables, read-only
    /// transactions, no temporary tables); the URL of `db` as that role.
    static func createReadOnlyRole(on db: String) throws -> String {
        guard let admin = PostgresTestCluster.adminURL, var components = URLComponents(string: db) else { throw PostgresTestCluster.Failure(description: "no cluster") }
        let role = "glimpse_reader_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let database = String(components.path.dropFirst())
        _ = try PostgresTestCluster.psql(admin, "CREATE ROLE \(role) LOGIN")
        _ = try PostgresTestCluster.psql(admin, "ALTER ROLE \(role) SET default_transaction_read_only = on")
        _ = try PostgresTestCluster.psql(admin, "REVOKE TEMPORARY ON DATABASE \(database) FROM PUBLIC")
        _ = try PostgresTestCluster.psql(db, "GRANT USAGE ON SCHEMA public TO \(role)")
        _ = try PostgresTestCluster.psql(db, "GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
        components.user = role
        return components.string ?? db
    }

    /// A digest of every table's rows in `db`'s public schema (name and md5 of the sorted rows).
    static func contentDigest(_ db: String) throws -> String {
        let tables = try PostgresTestCluster.psql(db, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
            .split(separator: "\n").map(String.init)
        return try tables.map { table in
            "\(table)=" + (try PostgresTestCluster.psql(db, "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM \"\(table)\" t"))
        }.joined(separator: ",")
    }
}
