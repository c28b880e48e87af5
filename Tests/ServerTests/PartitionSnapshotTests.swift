import Foundation
import PostgresTestSupport
import Testing

/// A replica of one partition keeps that partition's visual-index snapshot at its
/// `--snapshot` path: saved after its first build from the database, mapped at its next
/// start, and never mapped nor replaced by a replica of another partition.
@Suite("A partition replica's own snapshot", .enabled(if: PostgresTestCluster.isEnabled))
struct PartitionSnapshotTests {
    /// `replica`'s `/metrics` once it contains `line`, or after 60 s without it.
    static func metrics(of replica: Replica, once line: String) async throws -> String {
        var text = ""
        let deadline = ContinuousClock.now + .seconds(60)
        while !text.contains(line) && ContinuousClock.now < deadline {
            text = try await replica.http("GET", "/metrics").body
            if !text.contains(line) { try await Task.sleep(for: .milliseconds(50)) }
        }
        return text
    }

    @Test func aPartitionReplicaSavesItsSnapshotMapsItNextTimeAndAnotherPartitionLeavesItAlone() async throws {
        let db = try await PartitionedClusterTests.partitionedCatalog(2)
        let folder = try ReplicaCluster.scratch("partition-snapshot")
        let snapshot = folder + "/partition-0.vindex", wholeSnapshot = folder + "/whole.vindex"
        let whole = try Replica(db: db, arguments: ["--snapshot", wholeSnapshot])
        let builder = try PartitionedClusterTests.partitionReplica(db, "0/2", extra: ["--snapshot", snapshot])
        let other = try PartitionedClusterTests.partitionReplica(db, "1/2")
        var replicas = [whole, builder, other]
        defer { replicas.forEach { $0.kill() } }
        for replica in replicas { try await replica.waitUntilReady() }
        let built = try await builder.http("GET", "/readyz").json
        let saved = try await Self.metrics(of: builder, once: #"glimpse_snapshot_saves_total{outcome="written"} 1"#)
        #expect(saved.contains(#"glimpse_snapshot_saves_total{outcome="written"} 1"#), "\(builder.log)")
        #expect(saved.contains("glimpse_index_mapped 0"), "the first start builds from the database")
        let search = ReplicaTests.screenshotSearch
        let screenshot = try Harness.screenshotBytes()
        let expected = PartitionedClusterTests.comparable(try await whole.http("POST", search, body: screenshot))
        builder.kill()
        let wholeSaved = try await Self.metrics(of: whole, once: #"glimpse_snapshot_saves_total{outcome="written"} 1"#)
        #expect(wholeSaved.contains(#"glimpse_snapshot_saves_total{outcome="written"} 1"#), "\(whole.log)")

        // A replica of partition 1 given partition 0's snapshot, or the whole catalog's,
        // builds its own partition and leaves the file as it is.
        for path in [snapshot, wholeSnapshot] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let wrong = try PartitionedClusterTests.partitionReplica(db, "1/2", extra: ["--snapshot", path])
            replicas.append(wrong)
            try await wrong.waitUntilReady()
            let refused = try await Self.metrics(of: wrong, once: #"glimpse_snapshot_saves_total{outcome="refused"} 1"#)
            #expect(refused.contains(#"glimpse_snapshot_saves_total{outcome="refused"} 1"#), "\(path): \(wrong.log)")
            #expect(refused.contains("glimpse_index_mapped 0"), "\(path) is not mapped by partition 1")
            #expect(try await wrong.http("GET", "/readyz").json["landmarks"] as? Int == other.http("GET", "/readyz").json["landmarks"] as? Int)
            wrong.kill()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "\(path) is left as it was")
        }

        // Partition 0's next start maps it and answers as the whole catalog does.
        let mapped = try PartitionedClusterTests.partitionReplica(db, "0/2", extra: ["--snapshot", snapshot])
        replicas.append(mapped)
        try await mapped.waitUntilReady()
        let metrics = try await mapped.http("GET", "/metrics").body
        #expect(metrics.contains("glimpse_index_mapped 1"), "\(mapped.log)")
        #expect(!metrics.contains("glimpse_snapshot_saves_total"), "a mapped index is not saved again")
        let ready = try await mapped.http("GET", "/readyz").json
        #expect(ready["landmarks"] as? Int == built["landmarks"] as? Int && ready["partition"] as? String == "0/2")
        try await PartitionedClusterTests.waitForWholeCluster(mapped)
        #expect(PartitionedClusterTests.comparable(try await mapped.http("POST", search, body: screenshot)) == expected)
    }
}
