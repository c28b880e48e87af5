import Catalog
import Foundation
import HTTPTypes
import Search
import Server
import SQLiteStore
import Testing

/// A replica that had to build its index from the catalog saves it as its own snapshot, so
/// that its next start maps it instead of reading every fingerprint.
@Suite struct SnapshotSaveTests {
    @Test func aReplicaThatBuiltFromTheCatalogSavesItsSnapshotAndTheNextStartMapsIt() async throws {
        let catalog = try await Harness.newCatalog()
        let snapshot = URL(fileURLWithPath: catalog).deletingLastPathComponent().appendingPathComponent("replica.vindex").path
        #expect(!FileManager.default.fileExists(atPath: snapshot))

        let first = try await Harness.start(catalog: catalog) { $0.snapshotPath = snapshot }
        let built = try #require(first.state.holder.index?.prepared)
        #expect(!built.isMapped, "no snapshot yet: built from the catalog")
        // The save runs in the background after the build.
        let store = try SQLiteEntityStore(path: catalog)
        var saved: PreparedSearchIndex?
        let deadline = ContinuousClock.now + .seconds(60)
        while saved == nil && ContinuousClock.now < deadline {
            saved = try await PreparedSearchIndex.mapped(from: store, snapshotPath: snapshot)
            if saved == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let mapped = try #require(saved, "the snapshot is written within 60 s and is of this catalog's version")
        #expect(mapped.isMapped)
        #expect(mapped.version == built.version)
        #expect(mapped.viewCount == built.viewCount && mapped.landmarkCount == built.landmarkCount)
        let metrics = try await first.request(.get, "/metrics")
        #expect(metrics.text.contains("glimpse_snapshot_saves_total{outcome=\"written\"} 1"), "\(metrics.text)")
        await first.stop()
        #expect(try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: snapshot).deletingLastPathComponent().path)
            .allSatisfy { !$0.contains(".tmp-") }, "no temporary file is left behind")

        // The next start maps it and answers the same.
        let second = try await Harness.start(catalog: catalog) { $0.snapshotPath = snapshot }
        defer { Task { await second.stop() } }
        let served = try #require(second.state.holder.index?.prepared)
        #expect(served.isMapped, "the second start maps the saved snapshot")
        let answer = try await second.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)")
        #expect(answer.status == 200)
        let page = try WireJSON.decode(QueryResultRecord.self, from: answer.body)
        #expect(page.results.first?.id == "landmarks/hurricane-ridge")
        let secondMetrics = try await second.request(.get, "/metrics")
        #expect(secondMetrics.text.contains("glimpse_index_mapped 1"))
        #expect(!secondMetrics.text.contains("glimpse_snapshot_saves_total"), "a mapped index is not saved again")
    }

    @Test func aPathHoldingAnotherFileOrAnotherCatalogsSnapshotIsLeftAsItIs() async throws {
        let catalog = try await Harness.newCatalog()
        let folder = URL(fileURLWithPath: catalog).deletingLastPathComponent()
        // Not a snapshot at all (a mistyped path pointing at someone's file).
        let precious = folder.appendingPathComponent("notes.txt").path
        let text = Data("not a snapshot: keep me".utf8)
        try text.write(to: URL(fileURLWithPath: precious))
        // Another catalog's snapshot, written by saving that catalog's index.
        let other = try await Harness.newCatalog()
        let foreign = folder.appendingPathComponent("foreign.vindex").path
        let otherIndex = try await PreparedSearchIndex.build(from: try SQLiteEntityStore(path: other))
        let written = try otherIndex.saveSnapshot(to: foreign)
        #expect({ if case .written = written { true } else { false } }(), "\(written)")
        #expect(try otherIndex.saveSnapshot(to: foreign) == .notBehind(generation: otherIndex.version.generation), "the same generation is not written twice")
        let foreignBytes = try Data(contentsOf: URL(fileURLWithPath: foreign))
        for (path, before) in [(precious, text), (foreign, foreignBytes)] {
            let server = try await Harness.start(catalog: catalog) { $0.snapshotPath = path }
            let metrics = try await Self.metrics(of: server, once: "glimpse_snapshot_saves_total{outcome=\"refused\"} 1")
            #expect(metrics.contains("glimpse_snapshot_saves_total{outcome=\"refused\"} 1"), "\(path): \(metrics)")
            #expect(try await server.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)").status == 200)
            await server.stop()
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "\(path) is left as it was")
        }
    }

    @Test func aSnapshotThatCannotBeWrittenIsCountedAndTheReplicaGoesOnServing() async throws {
        let catalog = try await Harness.newCatalog()
        // A path inside a folder that does not exist: every write fails.
        let snapshot = URL(fileURLWithPath: catalog).deletingLastPathComponent().appendingPathComponent("missing/replica.vindex").path
        let server = try await Harness.start(catalog: catalog) { $0.snapshotPath = snapshot }
        defer { Task { await server.stop() } }
        let text = try await Self.metrics(of: server, once: "glimpse_snapshot_saves_total{outcome=\"failed\"} 1")
        #expect(text.contains("glimpse_snapshot_saves_total{outcome=\"failed\"} 1"), "\(text)")
        let answer = try await server.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)")
        #expect(answer.status == 200)
        #expect(try WireJSON.decode(QueryResultRecord.self, from: answer.body).results.first?.id == "landmarks/hurricane-ridge")
        #expect(!FileManager.default.fileExists(atPath: snapshot))
    }

    /// The server's `/metrics` text once it contains `line` (the save runs in the background),
    /// or after 60 s without it.
    static func metrics(of server: RunningServer, once line: String) async throws -> String {
        var text = ""
        let deadline = ContinuousClock.now + .seconds(60)
        while !text.contains(line) && ContinuousClock.now < deadline {
            text = try await server.request(.get, "/metrics").text
            if !text.contains(line) { try await Task.sleep(for: .milliseconds(20)) }
        }
        return text
    }
}
