import Foundation
import Testing

@Suite("glimpse index")
struct IndexCommandTests {
    @Test func indexesTheSampleManifestThenSkipsUnchangedFiles() throws {
        let db = try Glimpse.scratchFolder("index") + "/g.sqlite"
        let first = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("46 added, 0 updated, 0 skipped (unchanged), 0 failed"))
        // Not a terminal: plain progress lines, no carriage returns.
        #expect(first.stderr.contains("index: fingerprinting 46/46 (100%)"))
        #expect(!first.stderr.contains("\r"))
        let second = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        #expect(second.status == 0)
        #expect(second.stdout.contains("0 added, 0 updated, 46 skipped (unchanged), 0 failed"))
    }

    @Test func aCorruptFileIsReportedWithItsPathAndTheOthersAreIndexed() throws {
        let folder = try Glimpse.scratchFolder("index-folder")
        let photos = folder + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        for name in ["apricot", "avocado"] {
            try FileManager.default.copyItem(atPath: Glimpse.testdata("catalog/food/\(name).jpg"), toPath: "\(photos)/\(name).jpg")
        }
        try FileManager.default.copyItem(atPath: Glimpse.testdata("jpeg/corrupt_truncated_baseline.jpg"), toPath: "\(photos)/broken.jpg")
        let run = try Glimpse.run(["index", folder, "--db", folder + "/g.sqlite"])
        #expect(run.status == 2)
        #expect(run.stdout.contains("2 added, 0 updated, 0 skipped (unchanged), 1 failed"))
        let failures = run.errorLines.filter { $0.hasPrefix("glimpse: ") }
        #expect(failures.count == 1)
        #expect(failures.first?.hasPrefix("glimpse: \(photos)/broken.jpg: truncated JPEG file") == true, "\(failures)")
    }

    @Test func imagesASearchCannotFindAreCountedListedAndEachFindsItselfAsAnExactCopy() throws {
        let folder = try Glimpse.scratchFolder("index-low-information")
        let images = folder + "/textures"
        try FileManager.default.copyItem(atPath: Glimpse.testdata("low-information"), toPath: images)
        let db = folder + "/g.sqlite"
        let run = try Glimpse.run(["index", images, "--db", db])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("6 added, 0 updated, 0 skipped (unchanged), 0 failed"))
        #expect(run.stdout.contains("5 images have too little detail to be found by a search") && run.stdout.contains("(--verbose lists them)"))

        let verbose = try Glimpse.run(["index", images, "--db", db, "--verbose"])
        let listed = verbose.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(listed == ["fine-checker", "flat-blue", "flat-green", "gravel", "sand"].map { "\(images)/\($0).png" })

        let json = try Glimpse.run(["index", images, "--db", db, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["unchanged"] as? Int == 6 && (report["unsearchable"] as? [String])?.count == 5 && (report["failed"] as? [Any])?.isEmpty == true)

        let list = try Glimpse.run(["catalog", "list", "--db", db])
        #expect(list.stdout.contains("Too little detail for a search: 5 images, 5 landmarks wholly"), "\(list.stdout)")

        // Every file of the folder, queried as it is, finds itself first with score 1.
        for name in ["bands", "fine-checker", "flat-blue", "flat-green", "gravel", "sand"] {
            let query = try Glimpse.run(["query", "\(images)/\(name).png", "--db", db, "--json"])
            #expect(query.status == 0, "\(name): \(query.stdout)")
            #expect(query.stdout.contains(#""results":[{"id":"\#(name)","kind":"landmark","score":1,"#), "\(query.stdout)")
        }
        // A region of a flat image is not a copy, and says why nothing matched.
        let region = try Glimpse.run(["query", "\(images)/flat-blue.png", "--region", "0,0,100,100", "--db", db])
        #expect(region.status == 3)
        #expect(region.stdout.contains("no match: too little detail to search"), "\(region.stdout)")
        // match finds the copies too.
        let match = try Glimpse.run(["match", images, "--db", db, "--out", folder + "/matches.jsonl"])
        #expect(match.status == 0, "\(match.stderr)")
        let lines = try String(contentsOfFile: folder + "/matches.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6 && lines.allSatisfy { $0.contains(#""score":1"#) }, "\(lines)")
    }

    @Test func aMissingSourceIsOneErrorLineAndExitStatus1() throws {
        let folder = try Glimpse.scratchFolder("index-missing")
        let run = try Glimpse.run(["index", "no-such-manifest.json", "--db", folder + "/g.sqlite"])
        #expect(run.status == 1)
        #expect(run.errorLines == ["glimpse: no-such-manifest.json: no such file or folder"])
    }

    @Test func anInvalidManifestIsOneErrorLineNamingIt() throws {
        let folder = try Glimpse.scratchFolder("index-invalid")
        let manifest = Glimpse.testdata("catalog-fixtures/manifest/malformed.json")
        let run = try Glimpse.run(["index", manifest, "--db", folder + "/g.sqlite"])
        #expect(run.status == 1)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.hasPrefix("glimpse: \(manifest): ") == true)
    }

    @Test func helpShowsAnExampleAndTheExitCodes() throws {
        let run = try Glimpse.run(["index", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("Example:"))
        #expect(run.stdout.contains("Exit codes:"))
    }
}
