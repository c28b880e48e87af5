import Foundation
import Testing

/// The large-catalog tools and the visual-index snapshot seen from the command line: the
/// synthesizer writes a catalog and its snapshot, queries map it, a damaged one is
/// replaced, and the start-up benchmark script runs in its quick mode.
@Suite("glimpse debug-synthesize-catalog and the index snapshot", .serialized)
struct SnapshotCommandTests {
    static func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-snapshot-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    static let photo = Glimpse.testdata("catalog/animals/black-rhino.jpg")

    /// The result ids of one `query --json` line, in order.
    static func resultIDs(_ line: String) -> [String] {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (object?["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func indexBuildsTheFirstStageOnRequestKeepsItAndRemovesIt() throws {
        let dir = try Self.folder()
        let db = dir + "/staged.sqlite", firstStage = db + ".vindex.first"
        let manifest = Glimpse.testdata("catalog/manifest.json")
        // By default (automatic) a catalog this small gets none: the scan is faster.
        let plain = try Glimpse.run(["index", manifest, "--db", db])
        #expect(plain.status == 0 && !FileManager.default.fileExists(atPath: firstStage), "\(plain.stderr)")
        let built = try Glimpse.run(["index", manifest, "--db", db, "--first-stage", "always"])
        #expect(built.status == 0 && FileManager.default.fileExists(atPath: firstStage), "\(built.stderr)")
        // Searched through it (default) and exhaustively: the sample photo finds itself both ways.
        let query = try Glimpse.run(["query", "--deadline-ms", "60000", Self.photo, "--db", db, "--json"])
        let exact = try Glimpse.run(["query", "--deadline-ms", "60000", Self.photo, "--db", db, "--json", "--exact"])
        #expect(query.status == 0 && exact.status == 0, "\(query.stderr) \(exact.stderr)")
        #expect(Self.resultIDs(query.stdout).first == "animals/black-rhino")
        #expect(Self.resultIDs(exact.stdout).first == "animals/black-rhino")
        // Kept (and brought up to date) by a plain re-index, removed by --first-stage never.
        let again = try Glimpse.run(["index", manifest, "--db", db])
        #expect(again.status == 0 && FileManager.default.fileExists(atPath: firstStage), "\(again.stderr)")
        let removed = try Glimpse.run(["index", manifest, "--db", db, "--first-stage", "never"])
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: firstStage), "\(removed.stderr)")
        let refused = try Glimpse.run(["index", manifest, "--db", db, "--first-stage", "sometimes"])
        #expect(refused.status != 0 && refused.stderr.contains("first-stage"), "\(refused.stderr)")
        // A server builds its index with or without one; keeping or removing a snapshot's is index's job.
        for policy in ["never", "keep"] {
            let serve = try Glimpse.run(["serve", "--db", db, "--port", "0", "--first-stage", policy])
            #expect(serve.status == 1 && serve.stderr.contains("--first-stage \(policy)"), "\(serve.stderr)")
        }
    }

    @Test func aSnapshotPathThatIsAFolderOrAFIFOIsRefusedAndOneThatIsSomeonesFileIsLeftAsItIs() throws {
        let dir = try Self.folder()
        let db = dir + "/catalog.sqlite", fifo = dir + "/pipe.vindex"
        let indexed = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(mkfifo(fifo, 0o644) == 0)
        let catalogBefore = try Data(contentsOf: URL(fileURLWithPath: db))
        for (path, kind) in [(dir, "is a directory"), (fifo, "is a FIFO")] {
            for command in [["query", Self.photo], ["index", Glimpse.testdata("catalog/manifest.json")], ["serve", "--port", "0"]] {
                // A FIFO with no writer would block a reader forever: the refusal comes first.
                let run = try Glimpse.run(command + ["--db", db, "--snapshot", path])
                #expect(run.status == 1, "\(command[0]) --snapshot \(kind): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains("--snapshot '\(path)' \(kind)"), "\(run.stderr)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == catalogBefore, "the catalog is untouched")
        // A regular file that is not a snapshot is someone's: index says so and leaves it.
        let notes = dir + "/notes.txt"
        try Data("not a snapshot: keep me".utf8).write(to: URL(fileURLWithPath: notes))
        let kept = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db, "--snapshot", notes])
        #expect(kept.status == 0 && kept.stderr.contains("is not a Glimpse visual-index snapshot; it is left as it is"), "\(kept.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "not a snapshot: keep me")
        // Nor do searches, which build their index in memory and answer as without it.
        let expected = try Glimpse.run(["query", Self.photo, "--db", db, "--json"])
        for command in [["query", Self.photo, "--json"], ["match", Glimpse.testdata("catalog/animals")]] {
            let run = try Glimpse.run(command + ["--db", db, "--snapshot", notes])
            #expect(run.status == 0, "\(command[0]): \(run.stderr)")
            if command[0] == "query" { #expect(Self.resultIDs(run.stdout) == Self.resultIDs(expected.stdout) && !Self.resultIDs(run.stdout).isEmpty) }
            #expect(try String(contentsOfFile: notes, encoding: .utf8) == "not a snapshot: keep me", "\(command[0])")
        }
        // At the catalog's own path, which only Glimpse writes, anything is repaired.
        let own = db + ".vindex"
        try Data("a damaged header".utf8).write(to: URL(fileURLWithPath: own))
        #expect(try Glimpse.run(["query", Self.photo, "--db", db]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: own)).count > 4096, "the catalog's own snapshot is rewritten")
        let empty = try Glimpse.run(["query", Self.photo, "--db", db, "--snapshot", ""])
        #expect(empty.status == 1 && empty.stderr.contains("--snapshot wants a file path"), "\(empty.stderr)")
    }

    @Test func anAddRunKeepsTheSnapshotAsTheBaseAndSearchesFindWhatItAdded() throws {
        let dir = try Self.folder()
        let db = dir + "/added.sqlite", snapshot = db + ".vindex"
        let indexed = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        // A folder of two photos the catalog does not have, one in a collection folder.
        let more = dir + "/arrivals"
        try FileManager.default.createDirectory(atPath: more + "/instruments", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Glimpse.testdata("negatives/bassoon.jpg"), toPath: more + "/instruments/bassoon.jpg")
        try FileManager.default.copyItem(atPath: Glimpse.testdata("negatives/candle.jpg"), toPath: more + "/candle.jpg")
        let added = try Glimpse.run(["index", more, "--add", "--db", db])
        #expect(added.status == 0 && added.stdout.contains("2 added") && !added.stdout.contains("removed"), "\(added.stdout) \(added.stderr)")
        // Nothing else was removed, and the snapshot was left as it was: searches map it and
        // apply the two additions from the change log.
        let list = try Glimpse.run(["catalog", "list", "--db", db])
        #expect(list.stdout.contains("animals/black-rhino") && list.stdout.contains("instruments/bassoon") && list.stdout.contains("candle"), "\(list.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == written)
        let found = try Glimpse.run(["query", "--deadline-ms", "60000", more + "/instruments/bassoon.jpg", "--db", db, "--json"])
        #expect(found.status == 0 && Self.resultIDs(found.stdout).first == "instruments/bassoon", "\(found.stdout) \(found.stderr)")
        let old = try Glimpse.run(["query", "--deadline-ms", "60000", Self.photo, "--db", db, "--json"])
        #expect(Self.resultIDs(old.stdout).first == "animals/black-rhino", "\(old.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) == written, "a query does not rewrite a snapshot it can bring up to date")
        // A plain (replace) run of the manifest rewrites it and removes the folder's two landmarks and its collection.
        let replaced = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        #expect(replaced.status == 0 && replaced.stdout.contains("3 removed"), "\(replaced.stdout)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) != written)
        // An add run naming a landmark id the catalog holds with other files is refused (exit 1).
        try FileManager.default.createDirectory(atPath: dir + "/clash/animals", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Glimpse.testdata("negatives/candle.jpg"), toPath: dir + "/clash/animals/black-rhino.jpg")
        let clash = try Glimpse.run(["index", dir + "/clash", "--add", "--db", db])
        #expect(clash.status == 1 && clash.stderr.contains("\"animals/black-rhino\" is already in the catalog with other images"), "\(clash.stderr)")
    }

    @Test func theSynthesizerWritesACatalogAndASnapshotThatQueriesMap() throws {
        let dir = try Self.folder()
        let db = dir + "/big.sqlite"
        // A real landmark first: synthetic ones are added beside it, and it still matches.
        let indexed = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let made = try Glimpse.run(["debug-synthesize-catalog", "--db", db, "--landmarks", "300", "--collections", "4", "--seed", "9"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("Synthesized 300 landmarks × 31 views (9300 views, 4 collections, seed 9)"))
        #expect(made.stdout.contains("visual-index snapshot written"))
        let snapshot = db + ".vindex"
        let written = try FileManager.default.attributesOfItem(atPath: snapshot)[.modificationDate] as? Date
        let query = try Glimpse.run(["query", "--deadline-ms", "60000", Self.photo, "--db", db, "--json"])
        #expect(query.status == 0, "\(query.stderr)")
        #expect(Self.resultIDs(query.stdout).first == "animals/black-rhino")
        // The query mapped the current snapshot: it did not rewrite it.
        #expect(try FileManager.default.attributesOfItem(atPath: snapshot)[.modificationDate] as? Date == written)

        // Damaged where every scan reads (the PDQ planes: from about byte 3,000 to 340,000 of
        // this 10,713-view snapshot): the query answers the same from the catalog and
        // replaces the file.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
        #expect(bytes.count > 1_000_000)
        bytes[100_000] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: snapshot))
        let again = try Glimpse.run(["query", "--deadline-ms", "60000", Self.photo, "--db", db, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.resultIDs(again.stdout) == Self.resultIDs(query.stdout))
        #expect(try Data(contentsOf: URL(fileURLWithPath: snapshot)) != bytes)

        // Re-running with fewer landmarks replaces the synthetic ones and keeps the real ones.
        let smaller = try Glimpse.run(["debug-synthesize-catalog", "--db", db, "--landmarks", "10"])
        #expect(smaller.status == 0, "\(smaller.stderr)")
        let list = try Glimpse.run(["catalog", "list", "--db", db])
        #expect(list.stdout.contains("animals/black-rhino") && list.stdout.contains("synthetic/L00000009")
                && !list.stdout.contains("synthetic/L00000010"))
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let dir = try Self.folder()
        for arguments in [["--landmarks", "-1"], ["--landmarks", "5", "--views-per-landmark", "0"], ["--landmarks", "5", "--collections", "-2"]] {
            let run = try Glimpse.run(["debug-synthesize-catalog", "--db", dir + "/x.sqlite"] + arguments)
            #expect(run.status != 0 && !run.stderr.isEmpty, "\(arguments)")
        }
    }

    @Test func benchSearchAndTheStartUpScriptRunInQuickMode() throws {
        let bench = try Glimpse.run(["bench-search", "--views", "3100", "--repeat", "2", "--codes", "8"])
        #expect(bench.status == 0, "\(bench.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bench.stdout.utf8)) as? [String: Any])
        #expect((object["rows"] as? [[String: Any]])?.contains { $0["isa"] as? String == "portable" } == true)

        let binary = try #require(Glimpse.binary)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Glimpse.root.appendingPathComponent("benchmarks/startup.sh").path, "--quick",
                             "--glimpse", binary, "--image", Self.photo]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("| query, snapshot mapped |") && text.contains("| query, no usable snapshot"))
    }
}
