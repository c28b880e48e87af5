import Foundation
import Testing

@Suite("glimpse match")
struct MatchCommandTests {
    /// A folder of five photos: two catalog photos (one in a sub-folder), one negative,
    /// one corrupt JPEG, one PNG without extension, plus a text file that is not a photo.
    static func photoFolder() throws -> String {
        let folder = try Glimpse.scratchFolder("match") + "/photos"
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try manager.copyItem(atPath: Glimpse.testdata("catalog/food/apricot.jpg"), toPath: folder + "/apricot.jpg")
        try manager.copyItem(atPath: Glimpse.testdata("catalog/animals/lion.jpg"), toPath: folder + "/sub/lion.jpg")
        try manager.copyItem(atPath: Glimpse.testdata("catalog/animals/pink-flamingo.png"), toPath: folder + "/sub/flamingo-no-extension")
        try manager.copyItem(atPath: Glimpse.testdata("negatives/bassoon.jpg"), toPath: folder + "/bassoon.jpg")
        try manager.copyItem(atPath: Glimpse.testdata("jpeg/corrupt_truncated_baseline.jpg"), toPath: folder + "/broken.jpg")
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        return folder
    }

    static func rows(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func everyPhotoGetsOneRowInSortedOrderAndFailuresExitWith2() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Self.photoFolder()
        let run = try Glimpse.run(["match", folder, "--db", db, "--jobs", "2"])
        #expect(run.status == 2, "\(run.stderr)")
        let rows = try Self.rows(run.stdout)
        #expect(rows.map { $0["photo"] as? String ?? "" } == [
            "\(folder)/apricot.jpg", "\(folder)/bassoon.jpg", "\(folder)/broken.jpg",
            "\(folder)/sub/flamingo-no-extension", "\(folder)/sub/lion.jpg",
        ])
        for row in rows {
            #expect(Set(row.keys) == ["photo", "status", "matches", "error"])
        }
        let byPhoto = Dictionary(uniqueKeysWithValues: rows.map { ($0["photo"] as? String ?? "", $0) })
        let apricot = try #require(byPhoto["\(folder)/apricot.jpg"])
        #expect(apricot["status"] as? String == "matched")
        #expect(((apricot["matches"] as? [[String: Any]])?.first)?["id"] as? String == "food/apricot")
        #expect(((byPhoto["\(folder)/sub/flamingo-no-extension"]?["matches"] as? [[String: Any]])?.first)?["id"] as? String == "animals/pink-flamingo")
        let broken = try #require(byPhoto["\(folder)/broken.jpg"])
        #expect(broken["status"] as? String == "error")
        #expect((broken["error"] as? String)?.hasPrefix("\(folder)/broken.jpg: ") == true)
        // The failure is also one line on stderr, naming the file.
        #expect(run.errorLines.filter { $0.hasPrefix("glimpse: ") } == ["glimpse: \(broken["error"] as? String ?? "")"])
        #expect(run.stderr.contains("match: matching 5/5 (100%)"))
    }

    @Test func aRegionFractionSearchesThatPartOfEveryPhotoExactlyAsQueryDoes() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Glimpse.scratchFolder("match-region") + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Glimpse.testdata("catalog/food/apricot.jpg"), toPath: folder + "/apricot.jpg")
        let region = "0.1,0.15,0.7,0.75"
        let run = try Glimpse.run(["match", folder, "--db", db, "--region-fraction", region, "--matches", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let row = try #require(try Self.rows(run.stdout).first)
        let matches = try #require(row["matches"] as? [[String: Any]])
        #expect(matches.count <= 2 && matches.first?["id"] as? String == "food/apricot", "\(row)")
        // The same request through `glimpse query` scores the same landmark the same.
        let query = try Glimpse.run(["query", folder + "/apricot.jpg", "--db", db, "--region-fraction", region, "--json"])
        #expect(query.status == 0, "\(query.stderr)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [String: Any])
        let best = try #require((page["results"] as? [[String: Any]])?.first { $0["kind"] as? String == "landmark" })
        #expect(best["id"] as? String == "food/apricot")
        #expect(best["score"] as? Double == matches.first?["score"] as? Double)
        // The region grammar and its errors are query's.
        let bad = try Glimpse.run(["match", folder, "--db", db, "--region-fraction", "0.5,0.5,0,0.2"])
        #expect(bad.status == 1 && bad.stderr.contains("--region-fraction 0.5,0.5,0,0.2: width and height must be positive"), "\(bad.stderr)")
    }

    @Test func aMinimumScoreKeepsTheMatchesQueryKeepsWithIt() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Glimpse.scratchFolder("match-min-score") + "/photos"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Glimpse.testdata("catalog/animals/otter.jpg"), toPath: folder + "/otter.jpg")
        for minimum in ["0.05", "0.3", "0.9"] {
            let run = try Glimpse.run(["match", folder, "--db", db, "--min-score", minimum, "--matches", "100", "--region-fraction", "0,0,0.5,0.5"])
            #expect(run.status == 0, "\(run.stderr)")
            let matches = try #require(try Self.rows(run.stdout).first?["matches"] as? [[String: Any]])
            let query = try Glimpse.run(["query", folder + "/otter.jpg", "--db", db, "--min-score", minimum, "--json", "--page-size", "100",
                                         "--deadline-ms", "60000", "--region-fraction", "0,0,0.5,0.5"])
            let page = try #require(try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [String: Any], "\(query.stderr)")
            let landmarks = (page["results"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "landmark" }
            #expect(matches.map { $0["id"] as? String } == landmarks.map { $0["id"] as? String }, "min score \(minimum)")
            #expect(matches.allSatisfy { ($0["score"] as? Double ?? -1) >= Double(minimum)! })
            #expect(minimum == "0.9" ? matches.isEmpty : matches.first?["id"] as? String == "animals/otter", "min score \(minimum)")
        }
        let bad = try Glimpse.run(["match", folder, "--db", db, "--min-score", "x"])
        #expect(bad.status == 1 && bad.stderr.contains("--min-score must be a number in 0…1"), "\(bad.stderr)")
    }

    @Test func rerunningWithTheSameOutSkipsPhotosAlreadyWrittenAndRedoesAPartialLine() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Self.photoFolder()
        let out = folder + "/../rows.jsonl"
        let first = try Glimpse.run(["match", folder, "--db", db, "--out", out])
        #expect(first.status == 2)
        let complete = try String(contentsOfFile: out, encoding: .utf8)
        #expect(complete.split(separator: "\n").count == 5)
        // Simulate an interruption: keep two rows and half of the third.
        let lines = complete.split(separator: "\n", omittingEmptySubsequences: false)
        let interrupted = lines[0] + "\n" + lines[1] + "\n" + lines[2].prefix(20)
        try Data(interrupted.utf8).write(to: URL(fileURLWithPath: out))
        let second = try Glimpse.run(["match", folder, "--db", db, "--out", out])
        #expect(second.status == 2)
        #expect(second.stderr.contains("Matched 3 photos"))
        #expect(second.stderr.contains("2 already in \(out)"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == complete)
        // Nothing left to do: no row added, success.
        let third = try Glimpse.run(["match", folder, "--db", db, "--out", out])
        #expect(third.status == 0)
        #expect(third.stderr.contains("Matched 0 photos"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == complete)
    }

    @Test func csvRowsHaveAHeaderAndResumeToo() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Self.photoFolder()
        let out = folder + "/../rows.csv"
        let first = try Glimpse.run(["match", folder, "--db", db, "--out", out, "--jobs", "1"])
        #expect(first.status == 2)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "photo,status,best_id,best_title,best_score,best_url,matches,error")
        #expect(lines.count == 6)
        #expect(lines[1].hasPrefix("\(folder)/apricot.jpg,matched,food/apricot,Apricot,"))
        let again = try Glimpse.run(["match", folder, "--db", db, "--out", out, "--format", "csv"])
        #expect(again.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == text)
    }

    @Test func aForeignOutFileIsRefusedAndLeftUntouched() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Self.photoFolder()
        let out = folder + "/notes.txt"
        let run = try Glimpse.run(["match", folder, "--db", db, "--out", out])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("glimpse: \(out): last line is not a glimpse match jsonl row") == true)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "not a photo")
    }

    @Test func aMissingFolderIsOneErrorLine() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["match", "/no/such/folder", "--db", db])
        #expect(run.status == 1)
        #expect(run.errorLines == ["glimpse: /no/such/folder: cannot read photo folder: no such folder"])
    }

    @Test func theReportIsOneSelfContainedHTMLFileWithInlinedThumbnails() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Self.photoFolder()
        let report = folder + "/../report.html"
        let run = try Glimpse.run(["match", folder, "--db", db, "--out", folder + "/../rows.jsonl", "--report", report])
        #expect(run.status == 2)
        let html = try String(contentsOfFile: report, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // Five photos, the matched landmarks' thumbnails, all inlined; nothing external.
        #expect(html.components(separatedBy: "<section class=\"photo").count - 1 == 5)
        #expect(html.components(separatedBy: "src=\"data:image/").count - 1 >= 6)
        #expect(!html.contains("src=\"http") && !html.contains("src=\"file") && !html.contains("<link"))
        #expect(html.contains("food/apricot") || html.contains("food%2Fapricot"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
                   "chromium is not installed: the headless render check (scripts/check-report.sh) is skipped"))
    func theReportRendersInHeadlessChromium() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Self.photoFolder()
        let report = folder + "/../report.html"
        _ = try Glimpse.run(["match", folder, "--db", db, "--report", report])
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/bin/bash")
        check.arguments = [Glimpse.root.appendingPathComponent("scripts/check-report.sh").path, report, try #require(Glimpse.binary)]
        check.environment = ProcessInfo.processInfo.environment.merging(["GLIMPSE_NO_INSTALL": "1"]) { $1 }
        try check.run()
        check.waitUntilExit()
        #expect(check.terminationStatus == 0)
    }
}
