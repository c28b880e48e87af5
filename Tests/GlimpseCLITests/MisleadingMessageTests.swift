import Foundation
import GRDB
import Testing

/// Issue 13, item 8: messages that said something else than what went wrong.
@Suite("Messages that say what went wrong")
struct MisleadingMessageTests {
    @Test func aNegativeRegionIsRefusedInWordsNotAsAMissingValue() throws {
        let image = Glimpse.testdata("catalog/food/apricot.jpg")
        for command in [["inspect", image], ["query", image, "--db", try Glimpse.sampleCatalog.get()]] {
            let run = try Glimpse.run(command + ["--region", "-5,0,100,100"])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.errorLines.count == 1)
            #expect(!run.stderr.contains("Missing value"), "\(run.stderr)")
            #expect(run.stderr.contains("--region -5,0,100,100: x and y must be 0 or more"), "\(run.stderr)")
        }
    }

    /// `glimpse query` reads the one `SearchRequest` that `POST /v1/search` reads: the same
    /// limits, refused in the same words with the option's name.
    @Test func queryRefusesWhatTheHTTPAPIRefusesNamingTheOption() throws {
        let image = Glimpse.testdata("catalog/food/apricot.jpg")
        let catalog = try Glimpse.sampleCatalog.get()
        let cases: [([String], String)] = [
            (["--page-size", "1001"], "--page-size must be a whole number in 1…1000; got '1001'"),
            (["--deadline-ms", "60001"], "--deadline-ms must be a whole number in 1…60000; got '60001'"),
            (["--labels", (0..<33).map { "l\($0)" }.joined(separator: ",")], "--labels at most 32 labels of at most 64 bytes each"),
            (["--region", "0,0,10,2000000"], "--region 0,0,10,2000000: each value must be at most 1048576"),
            (["--region-fraction", "0,0,1.5,1"], "--region-fraction 0,0,1.5,1: each value must be a fraction in 0…1"),
        ]
        for (options, message) in cases {
            let run = try Glimpse.run(["query", image, "--db", catalog] + options)
            #expect(run.status == 1, "\(options): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(options): \(run.stderr)")
        }
        let matches = try Glimpse.run(["match", Glimpse.testdata("catalog/food"), "--db", catalog, "--matches", "1001"])
        #expect(matches.status == 1 && matches.stderr.contains("--matches must be a whole number in 1…1000"), "\(matches.stderr)")
    }

    @Test func dumpAndReportIntoAFolderSayItIsAFolder() throws {
        let scratch = try Glimpse.scratchFolder("dump-dir")
        let dump = try Glimpse.run(["inspect", Glimpse.testdata("catalog/food/apricot.jpg"), "--dump", scratch])
        #expect(dump.status == 1)
        #expect(dump.errorLines == ["glimpse: \(scratch): cannot write the PAM dump: is a directory; give a file name"], "\(dump.stderr)")
        let report = try Glimpse.run(["match", Glimpse.testdata("catalog/food"), "--report", scratch, "--db", try Glimpse.sampleCatalog.get()])
        #expect(report.status == 1)
        #expect(report.errorLines == ["glimpse: \(scratch): cannot write the report: is a directory; give a file name"], "\(report.stderr)")
        #expect(!(dump.stderr + report.stderr).contains("NSCocoaErrorDomain"))
    }

    @Test func aJPEGDeclaring65535PixelsASideQuotesTheCodecInsteadOfZeroByZero() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Glimpse.testdata("catalog/food/apricot.jpg"))))
        // The SOF marker's height and width (FFC0/FFC1/FFC2, length, precision, H, W).
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && $0 + 1 < bytes.count && [0xC0, 0xC1, 0xC2].contains(bytes[$0 + 1]) })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let path = try Glimpse.scratchFolder("huge") + "/huge.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try Glimpse.run(["inspect", path])
        #expect(run.status == 1)
        #expect(run.errorLines == ["glimpse: \(path): unsupported JPEG: Maximum supported image dimension is 65500 pixels"], "\(run.stderr)")
    }

    @Test func aLatin1ManifestIsSaidToBeNotUTF8() throws {
        let scratch = try Glimpse.scratchFolder("latin1")
        let path = scratch + "/manifest.json"
        var bytes = Array(#"{"landmarks":[{"id":"caf"#.utf8)
        bytes.append(0xE9) // é in Latin-1
        bytes += Array(#"","name":"Café","images":["a.jpg"]}]}"#.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let run = try Glimpse.run(["index", path, "--db", scratch + "/g.sqlite"])
        #expect(run.status == 1)
        #expect(run.errorLines == ["glimpse: \(path): not valid JSON: not UTF-8 text: byte 0xE9 at offset 24 is not valid UTF-8 (Latin-1?); save the manifest as UTF-8"], "\(run.stderr)")
    }

    @Test func errorsFromACorruptDatabaseNameTheFile() throws {
        let db = try Glimpse.copyOfSampleCatalog()
        // The file still opens (schema and migrations intact); the landmark table's root
        // page is garbage, so the error comes while reading, from deep inside the store.
        let (rootPage, pageSize) = try DatabaseQueue(path: db).read { db -> (Int, Int) in
            let root = try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'landmark'") ?? 0
            return (root, try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
        }
        #expect(rootPage > 1)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: db))
        try handle.seek(toOffset: UInt64((rootPage - 1) * pageSize))
        try handle.write(contentsOf: Data([0x0D] + [UInt8](repeating: 0xFF, count: pageSize - 1)))
        try handle.close()
        for command in [["catalog", "list"], ["query", Glimpse.testdata("catalog/food/apricot.jpg")], ["open", "landmark:food/apricot"],
                        ["match", Glimpse.testdata("catalog/food")]] {
            let run = try Glimpse.run(command + ["--db", db])
            #expect(run.status == 1, "\(command): \(run.stderr)")
            let last = run.errorLines.last ?? ""
            #expect(last.hasPrefix("glimpse: \(db): "), "\(command): \(run.stderr)")
        }
    }
}
