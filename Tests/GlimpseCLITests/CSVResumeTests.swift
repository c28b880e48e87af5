import Foundation
import Testing

/// Issue 13, item 6: `match --format csv --out` reads back its own RFC 4180 output,
/// including a photo name with a newline (a quoted field spanning two lines).
@Suite("CSV resume")
struct CSVResumeTests {
    @Test func aSecondRunResumesAfterRowsWhoseNamesHoldNewlinesCommasAndQuotes() throws {
        let scratch = try Glimpse.scratchFolder("csv-resume")
        let folder = scratch + "/nlf"
        try ShellRun.copy("catalog/food/apricot.jpg", to: folder + "/a\nb.jpg")
        try ShellRun.copy("catalog/food/avocado.jpg", to: folder + "/c,\"d\".jpg")
        try ShellRun.copy("catalog/food/cherries.jpg", to: folder + "/plain.jpg")
        let db = try Glimpse.sampleCatalog.get()
        let first = try Glimpse.run(["match", "nlf", "--format", "csv", "--out", "nl.csv", "--db", db], in: scratch)
        #expect(first.status == 0, "\(first.stderr)")
        let written = try String(contentsOfFile: scratch + "/nl.csv", encoding: .utf8)
        #expect(written.contains("\"nlf/a\nb.jpg\",matched,food/apricot"), "\(written)")
        #expect(written.contains("\"nlf/c,\"\"d\"\".jpg\",matched,food/avocado"), "\(written)")

        let second = try Glimpse.run(["match", "nlf", "--format", "csv", "--out", "nl.csv", "--db", db], in: scratch)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("Matched 0 photos"), "\(second.stderr)")
        #expect(second.stderr.contains("3 already in nl.csv"), "\(second.stderr)")
        #expect(try String(contentsOfFile: scratch + "/nl.csv", encoding: .utf8) == written)
    }

    @Test func aRowCutInsideAQuotedNewlineIsDroppedAndRedone() throws {
        let scratch = try Glimpse.scratchFolder("csv-cut")
        let folder = scratch + "/nlf"
        try ShellRun.copy("catalog/food/apricot.jpg", to: folder + "/a\nb.jpg")
        try ShellRun.copy("catalog/food/cherries.jpg", to: folder + "/plain.jpg")
        let db = try Glimpse.sampleCatalog.get()
        let first = try Glimpse.run(["match", "nlf", "--format", "csv", "--out", "nl.csv", "--db", db], in: scratch)
        #expect(first.status == 0, "\(first.stderr)")
        let written = try String(contentsOfFile: scratch + "/nl.csv", encoding: .utf8)
        // Interrupted just after the newline inside the first row's quoted name.
        let header = PhotoMatchCSVHeader.text + "\n"
        try (header + "\"nlf/a\n").write(toFile: scratch + "/nl.csv", atomically: true, encoding: .utf8)
        let second = try Glimpse.run(["match", "nlf", "--format", "csv", "--out", "nl.csv", "--db", db], in: scratch)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try String(contentsOfFile: scratch + "/nl.csv", encoding: .utf8) == written)
    }
}

/// The CSV header `glimpse match` writes.
enum PhotoMatchCSVHeader {
    static let text = "photo,status,best_id,best_title,best_score,best_url,matches,error"
}
