import Foundation
import PostgresTestSupport
import Testing

/// Replicas of a partitioned catalog with first stages run the cascade over every
/// partition's candidates at once, as one replica of the whole catalog runs it over its
/// own: a query some partition's candidates are sure of costs the other partitions their
/// first stage only (no scan of every view), a query no candidate is sure of gets every
/// partition's scan of every view, and the pages are the whole catalog's.
@Suite("The cascade across partitions", .serialized, .enabled(if: PostgresTestCluster.isEnabled))
struct PartitionCascadeTests {
    static let firstStageAnswers = #"glimpse_partition_answers_total{scan="first_stage"}"#
    static let everyViewAnswers = #"glimpse_partition_answers_total{scan="every_view"}"#

    /// A count from `replica`'s `/metrics` (0 when absent).
    static func count(_ replica: Replica, _ name: String) async throws -> Int {
        let text = try await replica.http("GET", "/metrics").body
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0
    }

    /// Every replica's answers to the others, by scan, summed.
    static func answers(_ replicas: [Replica]) async throws -> (firstStage: Int, everyView: Int) {
        var firstStage = 0, everyView = 0
        for replica in replicas {
            firstStage += try await count(replica, firstStageAnswers)
            everyView += try await count(replica, everyViewAnswers)
        }
        return (firstStage, everyView)
    }

    @Test func onlyAnUnsureQueryCostsTheOtherPartitionsAScanOfEveryView() async throws {
        let db = try await PartitionedClusterTests.partitionedCatalog(3)
        let staged = ["--first-stage", "always"]
        let whole = try Replica(db: db, arguments: staged)
        let parts = try ["0/3", "1/3", "2/3"].map { try PartitionedClusterTests.partitionReplica(db, $0, extra: staged) }
        defer { whole.kill(); parts.forEach { $0.kill() } }
        try await whole.waitUntilReady()
        for part in parts { try await part.waitUntilReady() }
        for part in parts { try await PartitionedClusterTests.waitForWholeCluster(part) }

        // A screenshot of one catalog photo: some partition's candidates are sure of it, so
        // the two partitions asked answer from their first stages only.
        let screenshot = try Harness.screenshotBytes()
        let search = ReplicaTests.screenshotSearch
        let before = try await Self.answers(parts)
        let page = try await parts[0].http("POST", search, body: screenshot)
        #expect(PartitionedClusterTests.comparable(page) == PartitionedClusterTests.comparable(try await whole.http("POST", search, body: screenshot)))
        #expect((page.json["results"] as? [[String: Any]])?.isEmpty == false)
        let sure = try await Self.answers(parts)
        // (Their first looks, and their whole first stages when no first look was sure.)
        #expect([2, 4].contains(sure.firstStage - before.firstStage) && sure.everyView == before.everyView,
                "first-stage answers and no scan of every view: \(before) → \(sure)")

        // A photo in no catalog: no candidate is sure, so every partition scans every view
        // (the two asked answer from their first stage, then with every view).
        let negative = Array(try Data(contentsOf: URL(fileURLWithPath: Harness.testdata("negatives/bassoon.jpg"))))
        let all = "/v1/search?page_size=100&deadline_ms=30000"
        let unsurePage = try await parts[1].http("POST", all, body: negative)
        #expect(unsurePage.status == 200)
        let unsure = try await Self.answers(parts)
        #expect([2, 4].contains(unsure.firstStage - sure.firstStage) && unsure.everyView - sure.everyView == 2, "\(sure) → \(unsure)")
        #expect(PartitionedClusterTests.comparable(unsurePage) == PartitionedClusterTests.comparable(try await whole.http("POST", all, body: negative)))

        // Every query of the sample: the partitioned pages are the whole catalog's, and an
        // exact search (`exact=true`) asks every view at once, never a first stage.
        var compared = 0
        for file in try PartitionedClusterTests.queryImages() {
            let image = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            for path in [all, all + "&exact=true"] {
                let expected = PartitionedClusterTests.comparable(try await whole.http("POST", path, body: image))
                #expect(PartitionedClusterTests.comparable(try await parts[compared % 3].http("POST", path, body: image)) == expected, "\(file) \(path)")
            }
            compared += 1
        }
        #expect(compared >= 50)
        let exactBefore = try await Self.answers(parts)
        // (A query not searched before: a kept ranking would answer without asking.)
        _ = try await parts[2].http("POST", search + "&exact=true", body: screenshot)
        let exactAfter = try await Self.answers(parts)
        #expect(exactAfter.firstStage == exactBefore.firstStage && exactAfter.everyView - exactBefore.everyView == 2, "\(exactBefore) → \(exactAfter)")
    }
}
