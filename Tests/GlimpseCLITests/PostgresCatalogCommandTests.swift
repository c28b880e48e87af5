import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `glimpse` against the throwaway PostgreSQL cluster of scripts/pg-test-cluster.sh
/// (`GLIMPSE_TEST_POSTGRES_URL`): a `kill -9` during an index run leaves the previous
/// catalog and a re-run finishes; two processes creating one catalog at once migrate it
/// once. In CI (`CI=true`) a missing cluster fails these tests.
@Suite("PostgreSQL catalogs", .enabled(if: PostgresCluster.adminURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"))
struct PostgresCatalogCommandTests {
    @Test func killingAnIndexRunLeavesThePreviousCatalogAndARerunFinishes() throws {
        let db = try PostgresCluster.createDatabase()
        let first = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        try #require(first.status == 0, "\(first.stderr)")
        let before = try Glimpse.run(["catalog", "list", "--json", "--db", db]).stdout
        let removalsBefore = try Glimpse.run(["catalog", "list", "--removed", "--json", "--db", db]).stdout

        // A different source whose images are all new content: fingerprinting takes a while.
        let folder = try Glimpse.scratchFolder("pg-kill")
        var copies = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: Glimpse.testdata("catalog/food")) where name.hasSuffix(".jpg") {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: Glimpse.testdata("catalog/food/\(name)")))
            for variant in 0..<4 {
                bytes.append(UInt8(variant))  // after the JPEG's end: same picture, new content hash
                try bytes.write(to: URL(fileURLWithPath: "\(folder)/\(variant)-\(name)"))
                copies += 1
            }
        }
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
            #expect(process.terminationReason == .uncaughtSignal)
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
        let db = try PostgresCluster.createDatabase()
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
        #expect(try PostgresCluster.psql(db, "SELECT string_agg(name, ',') FROM glimpse_migrations") == "v1-catalog")
        #expect(try PostgresCluster.psql(db, "SELECT count(*) FROM catalog_meta WHERE key = 'catalog_id'") == "1")
        #expect(try PostgresCluster.psql(db, "SELECT count(*) FROM landmark") == "3")
    }

    @Test func readCommandsRefuseADatabaseThatIsNotACatalogAndWriteNothing() throws {
        let db = try PostgresCluster.createDatabase()
        let list = try Glimpse.run(["catalog", "list", "--db", db])
        #expect(list.status == 1)
        #expect(list.errorLines.count == 1 && list.errorLines[0].contains("not a Glimpse catalog (an empty database"), "\(list.stderr)")
        #expect(try PostgresCluster.psql(db, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'") == "0")
    }
}

/// The test cluster, through `psql` (installed with PostgreSQL).
enum PostgresCluster {
    static var adminURL: String? {
        ProcessInfo.processInfo.environment["GLIMPSE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A new empty database; its URL.
    static func createDatabase() throws -> String {
        guard let admin = adminURL else { throw Failure(description: "no PostgreSQL test cluster (GLIMPSE_TEST_POSTGRES_URL); run scripts/test.sh") }
        let name = "glimpse_cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try psql(admin, "CREATE DATABASE \(name)")
        guard var components = URLComponents(string: admin) else { throw Failure(description: "bad URL \(admin)") }
        components.path = "/" + name
        return components.string ?? admin
    }

    /// Runs one statement and returns its output (tuples only, unaligned).
    static func psql(_ url: String, _ sql: String) throws -> String {
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
