import Catalog
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Search

/// What a command writing a snapshot may replace, decided in one place: anything at the
/// catalog's own path; at a path someone named, only nothing or a snapshot, never someone's
/// file nor another partition's snapshot. The cold start of a search and the streamed
/// rewrite of `glimpse index` follow the same rule.
@Suite struct SnapshotReplacementTests {
    @Test func aNamedPathReplacesOnlySnapshotsAndNeverAnotherPartitionsWhileTheCatalogsOwnReplacesAnything() async throws {
        let folder = try VisualIndexSnapshotTests.scratch()
        let store = try await VisualIndexSnapshotTests.catalog(in: folder, landmarks: 40)
        let (index, _) = try await VisualIndexSnapshot.refresh(store: store, path: nil)
        let catalogID = index.version.catalogID
        let whole = VisualIndexSnapshot.ownerID(catalogID: catalogID, partition: nil)
        let path = { (name: String) in folder.appendingPathComponent(name).path }

        // Nothing there, or anything at the catalog's own path: replaced.
        #expect(SnapshotReplacement.snapshotsOnly.refusal(toReplace: path("absent.vindex"), withSnapshotOf: whole) == nil)
        try Data("someone's notes".utf8).write(to: URL(fileURLWithPath: path("notes.txt")))
        #expect(mkfifo(path("pipe.vindex"), 0o644) == 0)
        for name in ["notes.txt", "pipe.vindex"] {
            #expect(SnapshotReplacement.anyFile.refusal(toReplace: path(name), withSnapshotOf: whole) == nil)
            // At a named path: someone's file, left as it is (a FIFO is read without blocking).
            let refusal = try #require(SnapshotReplacement.snapshotsOnly.refusal(toReplace: path(name), withSnapshotOf: whole))
            #expect(refusal.contains("is not a Glimpse visual-index snapshot"))
        }
        // A snapshot of the whole catalog (this one or any other) is replaced by anyone;
        // one partition's only by that partition's.
        try VisualIndexSnapshot.write(index, to: path("whole.vindex"))
        let zero = try CatalogPartition(index: 0, count: 4), one = try CatalogPartition(index: 1, count: 4)
        try VisualIndexSnapshot.write(index, to: path("partition-0.vindex"), partition: zero)
        let ofZero = VisualIndexSnapshot.ownerID(catalogID: catalogID, partition: zero)
        let ofOne = VisualIndexSnapshot.ownerID(catalogID: catalogID, partition: one)
        #expect(SnapshotReplacement.snapshotsOnly.refusal(toReplace: path("whole.vindex"), withSnapshotOf: ofOne) == nil)
        #expect(SnapshotReplacement.snapshotsOnly.refusal(toReplace: path("whole.vindex"), withSnapshotOf: "another catalog") == nil)
        #expect(SnapshotReplacement.snapshotsOnly.refusal(toReplace: path("partition-0.vindex"), withSnapshotOf: ofZero) == nil)
        let refusal = try #require(SnapshotReplacement.snapshotsOnly.refusal(toReplace: path("partition-0.vindex"), withSnapshotOf: whole))
        #expect(refusal.contains("partition 0/4 of") && refusal.contains("not catalog \(catalogID)"), "\(refusal)")
        #expect(SnapshotReplacement.snapshotsOnly.refusal(toReplace: path("partition-0.vindex"), withSnapshotOf: ofOne) != nil)

        // The cold start of a search and the streamed rewrite leave refused files byte for byte.
        let partitionBytes = try Data(contentsOf: URL(fileURLWithPath: path("partition-0.vindex")))
        for name in ["notes.txt", "partition-0.vindex"] {
            let before = try Data(contentsOf: URL(fileURLWithPath: path(name)))
            let (built, action) = try await VisualIndexSnapshot.refresh(store: store, path: path(name))
            #expect(built.viewCount == index.viewCount)
            guard case .notWritten = action else { Issue.record("\(name): \(action)"); continue }
            guard case .notWritten = try await VisualIndexSnapshot.rewrite(store: store, path: path(name)) else { Issue.record("\(name) rewritten"); continue }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path(name))) == before, "\(name) left as it was")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path("partition-0.vindex"))) == partitionBytes)
        // Replaced where allowed: someone's file at the catalog's own path, a whole snapshot.
        #expect(try await VisualIndexSnapshot.refresh(store: store, path: path("notes.txt"), replacing: .anyFile).action == .written)
        #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path("whole.vindex")) == .upToDate)
        #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path("pipe.vindex"), replacing: .anyFile) == .written)
    }
}
