import Catalog
import Foundation
import GlimpseProcessTesting
import GRDB
import SQLiteStore
import SyntheticData
import Testing

/// `glimpse index` killed with SIGKILL at random moments never leaves a broken or mixed
/// catalog: after each kill the database opens, passes `PRAGMA integrity_check`, and holds
/// exactly the entities of a completed state (the previous catalog or the new one); running
/// the same command again completes the job.
///
/// Two manifests over the same images alternate as the target (A → B → A …): B drops
/// some of A's landmarks, adds others, renames one and regroups the collections. Before
/// every run the images get new trailing bytes (ignored by the decoders, but a new content
/// hash), so each run fingerprints every image and the kills land in all phases: start-up,
/// checking, fingerprinting, cache batches and the final write.
@Suite(.serialized) struct CrashSafetyTests {
    /// Kills performed (each followed by a completing run).
    static let kills = 20
    /// Seed of the kill delays, so a failure can be replayed.
    static let seed: UInt64 = 0x5EED_0007

    /// What a completed state is made of: every live entity and fingerprint, and the
    /// catalog generation.
    struct CatalogState: Equatable, CustomStringConvertible {
        var generation: Int64
        var landmarks: [LandmarkEntity]
        var collections: [CollectionEntity]
        var fingerprints: [FingerprintSnapshot.Entry]

        var description: String {
            "generation \(generation): \(landmarks.count) landmarks [\(landmarks.map(\.name).joined(separator: ", "))], "
                + "\(collections.count) collections, \(fingerprints.count) fingerprinted"
        }
    }

    struct Workspace {
        let folder: URL
        let database: String
        let manifests: [String]
        let images: [URL]
        let expectedLandmarkIDs: [[String]]

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-crash-\(UUID().uuidString)")
            let imageFolder = folder.appendingPathComponent("images")
            try FileManager.default.createDirectory(at: imageFolder, withIntermediateDirectories: true)
            let catalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("testdata/catalog")
            let sources = (FileManager.default.enumerator(atPath: catalog.path)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".jpg") }.sorted().prefix(16)
            var images: [URL] = []
            for (index, source) in sources.enumerated() {
                let copy = imageFolder.appendingPathComponent(String(format: "image-%02d.jpg", index))
                try FileManager.default.copyItem(at: catalog.appendingPathComponent(source), to: copy)
                images.append(copy)
            }
            self.images = images
            database = folder.appendingPathComponent("catalog.sqlite").path

            // A: landmarks 0..<11; B: landmarks 5..<16, landmark 7 renamed.
            func manifest(_ range: Range<Int>, renamed: Int?, collections: [(String, [Int])]) -> [String: Any] {
                [
                    "version": 1,
                    "landmarks": range.map { i in
                        ["id": "landmark-\(i)", "name": i == renamed ? "Renamed \(i)" : "Landmark \(i)",
                         "keywords": ["k\(i % 3)"], "images": ["images/image-\(String(format: "%02d", i)).jpg"]] as [String: Any]
                    },
                    "collections": collections.map { ["id": $0.0, "name": $0.0.capitalized, "landmarks": $0.1.map { "landmark-\($0)" }] },
                ]
            }
            let a = manifest(0..<11, renamed: nil, collections: [("evens", Array(stride(from: 0, to: 11, by: 2))), ("firsts", [0, 1, 2])])
            let b = manifest(5..<16, renamed: 7, collections: [("evens", Array(stride(from: 6, to: 16, by: 2))), ("lasts", [13, 14, 15])])
            var manifests: [String] = []
            for (name, content) in [("a.json", a), ("b.json", b)] {
                let path = folder.appendingPathComponent(name).path
                try JSONSerialization.data(withJSONObject: content, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
                manifests.append(path)
            }
            self.manifests = manifests
            expectedLandmarkIDs = [(0..<11).map { "landmark-\($0)" }.sorted(), (5..<16).map { "landmark-\($0)" }.sorted()]
        }

        /// Gives every image new content that decodes to the same pixels: bytes after EOI.
        func touchImages(_ round: Int) throws {
            for image in images {
                var bytes = try Data(contentsOf: image)
                bytes.append(contentsOf: Array("round \(round)\n".utf8))
                try bytes.write(to: image)
            }
        }

        func index(_ target: Int, killAfter: Double? = nil) throws -> ChildRun {
            try ChildProcess.run(GlimpseExecutable.pathOrPlaceholder, ["index", manifests[target], "--db", database, "--jobs", "2"], killAfter: killAfter)
        }

        /// `PRAGMA integrity_check` rows ("ok" when sound), on a connection of its own.
        func integrityCheck() throws -> [String] {
            let queue = try DatabaseQueue(path: database)
            defer { try? queue.close() }
            return try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        }

        /// Opens the catalog as the application does and reads every entity.
        func state() throws -> CatalogState {
            let store = try SQLiteEntityStore(path: database)
            return CatalogState(
                generation: try store.catalogVersion().generation,
                landmarks: try store.allLandmarks().sorted { $0.id < $1.id },
                collections: try store.allCollections().sorted { $0.id < $1.id },
                fingerprints: try store.fingerprintSnapshot().entries)
        }
    }

    @Test func killingIndexAtRandomMomentsLeavesACompletedStateAndRerunningFinishes() throws {
        try #require(GlimpseExecutable.path != nil, "build the glimpse executable first (swift build)")
        let workspace = try Workspace()
        defer { try? FileManager.default.removeItem(at: workspace.folder) }

        // The first, uninterrupted run: state A, and how long a full run takes here.
        try workspace.touchImages(0)
        let first = try workspace.index(0)
        try #require(first.exitStatus == 0, "\(first)")
        var previous = try workspace.state()
        #expect(previous.landmarks.map(\.id) == workspace.expectedLandmarkIDs[0])
        #expect(previous.fingerprints.count == 11)
        let fullRun = first.seconds

        var generator = SeededGenerator(seed: Self.seed)
        var killedMidRun = 0, leftPrevious = 0, leftNew = 0
        for round in 1...Self.kills {
            let target = round % 2 // 1 = B, 0 = A
            try workspace.touchImages(round)
            let delay = 0.02 + fullRun * 1.1 * Double(generator.next() % 10_000) / 10_000
            let killed = try workspace.index(target, killAfter: delay)
            if killed.signal == SIGKILL { killedMidRun += 1 }

            // Opens, is sound, and holds a completed state...
            let integrity = try workspace.integrityCheck()
            #expect(integrity == ["ok"], "round \(round) (killed after \(delay) s): \(integrity)")
            let afterKill = try workspace.state()

            // ...which re-running completes.
            let rerun = try workspace.index(target)
            #expect(rerun.exitStatus == 0, "round \(round): \(rerun)")
            #expect(try workspace.integrityCheck() == ["ok"])
            let completed = try workspace.state()
            #expect(completed.landmarks.map(\.id) == workspace.expectedLandmarkIDs[target], "round \(round)")
            #expect(completed.fingerprints.count == workspace.expectedLandmarkIDs[target].count, "round \(round)")
            #expect(completed.landmarks.contains { $0.name == "Renamed 7" } == (target == 1))

            let isPrevious = afterKill == previous
            let isNew = afterKill == completed
            if isPrevious { leftPrevious += 1 }
            if isNew { leftNew += 1 }
            #expect(isPrevious || isNew, """
                round \(round): killed after \(String(format: "%.3f", delay)) s (\(killed)) the catalog holds \(afterKill), \
                neither the previous \(previous) nor the completed \(completed)
                """)
            previous = completed
        }
        if ProcessInfo.processInfo.environment["GLIMPSE_PRINT_LIMITS"] != nil {
            print("crash-safety: \(Self.kills) kills (full run \(String(format: "%.2f", fullRun)) s): \(killedMidRun) mid-run, "
                  + "\(leftPrevious) left the previous catalog, \(leftNew) the new one")
        }
        // The delays must actually interrupt runs, or the test proves nothing.
        #expect(killedMidRun >= Self.kills / 2, "only \(killedMidRun) of \(Self.kills) kills interrupted a run")
    }
}
