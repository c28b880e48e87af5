import Foundation
import GlimpseProcessTesting
import PostgresTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Real `glimpse serve` processes holding one partition each of a PostgreSQL catalog split
/// by `glimpse catalog repartition`: every search fans out to the other partitions' replicas
/// and the merged page is the one a replica holding the whole catalog answers (same
/// entities, order, scores and next pages); a partition with no replica gives pages marked
/// partial that name it, and full pages again once one returns; a partition's twin takes
/// over when one replica dies. In CI a missing cluster fails these tests.
@Suite("Partitioned catalog served by replica groups", .serialized, .enabled(if: PostgresTestCluster.isEnabled))
struct PartitionedClusterTests {
    static let clusterToken = "partitioned-cluster-tests-token-0123456789"

    /// The sample catalog split into `count` partitions.
    static func partitionedCatalog(_ count: Int) async throws -> String {
        let db = try await ReplicaCluster.sampleCatalogCopy()
        let run = try ReplicaCluster.glimpse(["catalog", "repartition", "--partitions", "\(count)", "--db", db])
        try #require(run.status == 0, "\(run.stderr)")
        return db
    }

    /// A replica of partition `partition` of `db`, with `extra` arguments.
    static func partitionReplica(_ db: String, _ partition: String, extra: [String] = []) throws -> Replica {
        let folder = try ReplicaCluster.scratch("cluster-token")
        let tokenPath = folder + "/cluster-token"
        try clusterToken.write(toFile: tokenPath, atomically: true, encoding: .utf8)
        return try Replica(db: db, arguments: ["--partition", partition, "--cluster-token-file", tokenPath, "--partition-timeout-ms", "5000"] + extra)
    }

    /// Waits until `replica`'s `/readyz` names no missing partition.
    static func waitForWholeCluster(_ replica: Replica, within limit: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let ready = try await replica.http("GET", "/readyz")
            if ready.status == 200, let missing = ready.json["partitions_missing"] as? [String], missing.isEmpty { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("partitions still missing: \(try await replica.http("GET", "/readyz").body)")
    }

    /// Every image of the sample catalog and the negatives: the queries compared.
    static func queryImages() throws -> [String] {
        var files: [String] = []
        for folder in ["catalog/animals", "catalog/food", "catalog/history-and-science", "catalog/landmarks", "catalog/objects", "catalog/sky", "negatives"] {
            let path = Harness.testdata(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: path).sorted() where !name.hasSuffix(".md") && !name.hasSuffix(".txt") {
                files.append(path + "/" + name)
            }
        }
        return files
    }

    /// An answer's results and next page, without its timing.
    static func comparable(_ answer: (status: Int, body: String, json: [String: Any])) -> String {
        let results = (try? JSONSerialization.data(withJSONObject: answer.json["results"] ?? [], options: [.sortedKeys])) ?? Data()
        return "\(answer.status) partial=\(answer.json["partial"] ?? "-") missing=\(answer.json["missing_partitions"] ?? "-") " + String(decoding: results, as: UTF8.self)
    }

    @Test func mergedPagesAreTheWholeCatalogsPagesAndATwinTakesOverAndALostPartitionIsNamed() async throws {
        let db = try await Self.partitionedCatalog(3)
        let whole = try Replica(db: db)
        let parts = try ["0/3", "1/3", "2/3"].map { try Self.partitionReplica(db, $0) }
        var twin: Replica?
        defer { whole.kill(); parts.forEach { $0.kill() }; twin?.kill() }
        try await whole.waitUntilReady()
        for part in parts { try await part.waitUntilReady() }
        for part in parts { try await Self.waitForWholeCluster(part) }
        // Each replica holds a third of the landmarks or so, and says which partition.
        var held = 0
        for (k, part) in parts.enumerated() {
            let ready = try await part.http("GET", "/readyz").json
            #expect(ready["partition"] as? String == "\(k)/3")
            held += ready["landmarks"] as? Int ?? 0
        }
        #expect(held == (try await whole.http("GET", "/readyz").json["landmarks"] as? Int), "the partitions' landmarks add up to the catalog's")

        // Every query: the same first page from every partition replica as from the whole
        // catalog, and its next page continued on another replica the same too.
        var compared = 0, continued = 0
        for (q, file) in try Self.queryImages().enumerated() {
            let image = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            let all = "/v1/search?page_size=100&deadline_ms=30000"
            let everything = Self.comparable(try await whole.http("POST", all, body: image))
            for part in parts {
                #expect(Self.comparable(try await part.http("POST", all, body: image)) == everything, "\(file) on \(part.process.arguments ?? [])")
            }
            compared += 1
            // One result per page: the second page (a collection, from membership) through a token.
            let path = "/v1/search?page_size=1&deadline_ms=30000"
            let expected = try await whole.http("POST", path, body: image)
            #expect(Self.comparable(try await parts[(q + 1) % 3].http("POST", path, body: image)) == Self.comparable(expected))
            if let token = expected.json["next_page_token"] as? String {
                let next = "/v1/search?deadline_ms=30000&page_token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
                let wholeNext = try await whole.http("GET", next)
                let partNext = try await parts[q % 3].http("GET", next)
                #expect(Self.comparable(partNext) == Self.comparable(wholeNext), "page 2 of \(file)")
                continued += 1
            }
        }
        #expect(compared >= 50 && continued >= 10, "\(compared) queries, \(continued) with a second page")

        // The internal endpoint wants the cluster token.
        let probe = Array(#"{"partition":"1/3"}"#.utf8)
        #expect(try await parts[1].http("POST", "/internal/v1/partition-matches", body: probe).status == 401)
        #expect(try await parts[1].http("POST", "/internal/v1/partition-matches", body: probe,
                                        headers: ["Authorization: Bearer not-the-cluster-token-at-all"]).status == 403)
        #expect(try await whole.http("POST", "/internal/v1/partition-matches", body: probe,
                                     headers: ["Authorization: Bearer \(Self.clusterToken)"]).status == 404)
        // With the token: an incomplete request, another partition's, a fingerprint that is not one.
        let authorized = ["Authorization: Bearer \(Self.clusterToken)", "Content-Type: application/json"]
        func request(_ partition: String, fingerprint: String) -> [UInt8] {
            Array(#"{"partition":"\#(partition)","profile":0,"fingerprint":"\#(fingerprint)","minimum_score":0.4,"limit":10,"membership_of":[],"deadline_ms":100}"#.utf8)
        }
        #expect(try await parts[1].http("POST", "/internal/v1/partition-matches", body: probe, headers: authorized).status == 400)
        #expect(try await parts[1].http("POST", "/internal/v1/partition-matches", body: request("2/3", fingerprint: "AA=="), headers: authorized).status == 421)
        #expect(try await parts[1].http("POST", "/internal/v1/partition-matches", body: request("1/3", fingerprint: "AA=="), headers: authorized).status == 400)

        // A twin of partition 2, then partition 2's first replica killed: complete pages.
        let screenshot = try Harness.screenshotBytes()
        let search = ReplicaTests.screenshotSearch
        let expected = Self.comparable(try await whole.http("POST", search, body: screenshot))
        twin = try Self.partitionReplica(db, "2/3")
        try await twin?.waitUntilReady()
        // Registered in the catalog, then read by the others at their next heartbeat.
        let registered = ContinuousClock.now + .seconds(15)
        while try PostgresTestCluster.psql(db, "SELECT count(*) FROM cluster_member WHERE partition_index = 2") != "2", ContinuousClock.now < registered {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .seconds(2))
        parts[2].kill()
        for _ in 0..<10 {
            #expect(Self.comparable(try await parts[0].http("POST", search, body: screenshot)) == expected, "the twin answers for partition 2")
        }
        // No replica of partition 2: partial pages naming it (for a query not answered
        // before: a complete ranking already made is still complete), then complete again.
        twin?.kill()
        let fresh = "/v1/search?region=4,200,712,340&page_size=3&deadline_ms=30000"
        let freshExpected = Self.comparable(try await whole.http("POST", fresh, body: screenshot))
        let lost = try await parts[0].http("POST", fresh, body: screenshot)
        #expect(lost.status == 200 && lost.json["partial"] as? Bool == true && lost.json["missing_partitions"] as? [String] == ["2/3"], "\(lost.body)")
        let back = try Self.partitionReplica(db, "2/3")
        defer { back.kill() }
        try await back.waitUntilReady()
        // Complete again once partition 0 has read the returned replica's heartbeat (a
        // second apart; the killed replicas' rows stay listed up to 3 s, refused at once).
        var again = try await parts[0].http("POST", fresh, body: screenshot)
        let deadline = ContinuousClock.now + .seconds(15)
        while again.json["partial"] as? Bool != false, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            again = try await parts[0].http("POST", fresh, body: screenshot)
        }
        #expect(Self.comparable(again) == freshExpected, "complete again")
    }
}
