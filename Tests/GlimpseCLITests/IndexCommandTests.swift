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
