import Foundation
import Testing

@Suite("glimpse query")
struct QueryCommandTests {
    // Every query gets a generous deadline: debug builds on a busy machine are slow, and a
    // deadline cut would make results partial (tested separately in SearchTests).
    static let screenshot = Glimpse.testdata("samples/screenshot-hurricane-ridge.png")

    @Test func theScreenshotSelectionFindsHurricaneRidgeFirst() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--region", "4,211,712,332", "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count >= 3)
        #expect(lines[1].hasPrefix("RANK  KIND"))
        #expect(lines[2].contains("landmark") && lines[2].contains("landmarks/hurricane-ridge ")
                && lines[2].contains("glimpse://landmark/landmarks%2Fhurricane-ridge"))
        #expect(run.stderr.isEmpty)
    }

    @Test func jsonHasExactlyTheDocumentedShape() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--region", "4,211,712,332", "--db", db, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["query", "results", "next_page_token", "partial", "elapsed_ms"])
        #expect(object["query"] as? String == Self.screenshot)
        #expect(object["partial"] as? Bool == false)
        #expect((object["elapsed_ms"] as? Int ?? -1) >= 0)
        let results = try #require(object["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        for result in results {
            #expect(Set(result.keys) == ["kind", "id", "title", "subtitle", "score", "url"])
            #expect(["landmark", "collection"].contains(result["kind"] as? String ?? ""))
            let score = try #require(result["score"] as? Double)
            #expect(score >= 0 && score <= 1)
        }
        #expect(results.first?["id"] as? String == "landmarks/hurricane-ridge")
        // Keys come out sorted (WireJSON), so the line is deterministic.
        #expect(lines[0].hasPrefix("{\"elapsed_ms\":"))
    }

    @Test func thePageTokenFetchesTheNextPage() throws {
        let db = try Glimpse.sampleCatalog.get()
        let first = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--region", "4,211,712,332", "--db", db, "--json", "--page-size", "1"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let token = try #require(object["next_page_token"] as? String, "a one-result page of a multi-result query has a token")
        let second = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--region", "4,211,712,332", "--db", db, "--json", "--page-size", "1", "--page-token", token])
        #expect(second.status == 0 || second.status == 3, "\(second.stderr)")
        let next = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        let firstID = (object["results"] as? [[String: Any]])?.first?["url"] as? String
        let secondID = (next["results"] as? [[String: Any]])?.first?["url"] as? String
        #expect(secondID != nil && secondID != firstID)
        // The table prints the command for the next page.
        let table = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--region", "4,211,712,332", "--db", db, "--page-size", "1"])
        #expect(table.stdout.contains("Next page: glimpse query \(Self.screenshot) --db \(db) --region 4,211,712,332 --page-size 1 --deadline-ms 60000 --page-token "))
    }

    @Test func aMinimumScoreWidensOrNarrowsTheMatchesAndTheNextPageKeepsIt() throws {
        let db = try Glimpse.sampleCatalog.get()
        // The top-left quarter of the otter photo scores its landmark under the calibrated 0.40.
        let otter = [Glimpse.testdata("catalog/animals/otter.jpg"), "--region-fraction", "0,0,0.5,0.5"]
        func results(_ arguments: [String]) throws -> (status: Int32, landmarks: [[String: Any]]) {
            let run = try Glimpse.run(["query", "--deadline-ms", "60000", "--db", db, "--json", "--page-size", "100"] + arguments)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
            return (run.status, (object["results"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "landmark" })
        }
        let score = { (row: [String: Any]) in row["score"] as? Double ?? -1 }
        let calibrated = try results(otter), found = try results(otter + ["--min-score", "0.3"]), wide = try results(otter + ["--min-score", "0.05"])
        #expect(calibrated.status == 3 && calibrated.landmarks.isEmpty)
        #expect(found.status == 0 && found.landmarks.map { $0["id"] as? String } == ["animals/otter"] && found.landmarks.allSatisfy { score($0) >= 0.3 })
        #expect(wide.landmarks.count > 1 && wide.landmarks.allSatisfy { score($0) >= 0.05 })
        let strict = try results([Self.screenshot, "--region", "4,211,712,332", "--min-score", "0.7"])
        #expect(strict.status == 3 && strict.landmarks.isEmpty)
        let table = try Glimpse.run(["query", "--deadline-ms", "60000", "--db", db, "--page-size", "1", "--min-score", "0.05"] + otter)
        let next = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix("Next page: ") })
        #expect(next.contains("--min-score 0.05 --page-token "))
        let bad = try Glimpse.run(["query", Self.screenshot, "--db", db, "--min-score", "2"])
        #expect(bad.status == 1 && bad.errorLines.count == 1 && bad.stderr.contains("--min-score must be a number in 0…1"), "\(bad.stderr)")
    }

    @Test func aMalformedPageTokenIsOneErrorLineAndExitStatus1() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--db", db, "--page-token", "not*a*token"])
        #expect(run.status == 1)
        #expect(run.errorLines == ["glimpse: \(Self.screenshot): page token is malformed (not a token this program issued)"])
    }

    @Test func aMissingImageIsOneErrorLineNamingIt() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", "missing.png", "--db", db])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("glimpse: missing.png: cannot read file") == true)
    }

    @Test func aCorruptImageIsOneErrorLineNamingIt() throws {
        let db = try Glimpse.sampleCatalog.get()
        let corrupt = Glimpse.testdata("jpeg/corrupt_bad_marker.jpg")
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", corrupt, "--db", db])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("glimpse: \(corrupt): ") == true)
    }

    @Test func someFailingImagesAmongGoodOnesExitWith2() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "missing.png", "--region-fraction", "0,0.14,1,0.23", "--db", db, "--json"])
        #expect(run.status == 2)
        // One JSON line per query image: the missing one says why, in "error".
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last?.contains("\"error\":\"missing.png: ") == true)
        #expect(run.errorLines.count == 1)
    }

    @Test func anImageMatchingNothingExitsWith3() throws {
        let db = try Glimpse.sampleCatalog.get()
        // A flat grey image carries no visual information: never a match.
        let folder = try Glimpse.scratchFolder("flat")
        let flat = folder + "/flat.png"
        try Data(try FlatPNG.grey(width: 64, height: 48)).write(to: URL(fileURLWithPath: flat))
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", flat, "--db", db, "--json"])
        #expect(run.status == 3)
        #expect(run.stdout.contains("\"results\":[]"))
    }

    @Test func jsonPrintsOneLinePerImageAndAFailedImageCarriesItsError() throws {
        let db = try Glimpse.sampleCatalog.get()
        let folder = try Glimpse.scratchFolder("json-failed")
        let empty = folder + "/empty.jpg"
        try Data().write(to: URL(fileURLWithPath: empty))
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, empty, "--db", db, "--json"])
        #expect(run.status == 2)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let good = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(good["query"] as? String == Self.screenshot && good["error"] == nil)
        let failed = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(failed["query"] as? String == empty)
        #expect((failed["error"] as? String)?.contains("empty") == true)
        #expect((failed["results"] as? [Any])?.isEmpty == true)
        #expect(failed["next_page_token"] is NSNull && failed["partial"] as? Bool == false)
    }

    @Test func badUsageIsOneErrorLineAndExitStatus1() throws {
        let db = try Glimpse.sampleCatalog.get()
        let both = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--db", db, "--region", "0,0,10,10", "--region-fraction", "0,0,1,1"])
        #expect(both.status == 1)
        #expect(both.errorLines.count == 1)
        let badRegion = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--db", db, "--region", "1,2,3"])
        #expect(badRegion.status == 1)
        #expect(badRegion.errorLines.count == 1)
        let outside = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot, "--db", db, "--region", "0,0,5000,10"])
        #expect(outside.status == 1)
        #expect(outside.errorLines.count == 1)
        #expect(outside.errorLines.first?.contains(Self.screenshot) == true)
    }

    @Test func aMissingDatabaseSaysHowToMakeOne() throws {
        let folder = try Glimpse.scratchFolder("nodb")
        let run = try Glimpse.run(["query", "--deadline-ms", "60000", Self.screenshot], in: folder)
        #expect(run.status == 1)
        #expect(run.errorLines == ["glimpse: glimpse.sqlite: no catalog database here; build one with 'glimpse index SOURCE --db glimpse.sqlite'"])
    }
}
