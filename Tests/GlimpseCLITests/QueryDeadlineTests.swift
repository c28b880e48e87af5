import Foundation
import Testing

/// Issue 13, item 5: a scan cut short by the deadline is not reported as "no match".
@Suite("Query deadline")
struct QueryDeadlineTests {
    @Test func aScanCutShortBeforeAnythingWasFoundSaysSoAndExits4NotNoMatch() throws {
        let db = try Glimpse.sampleCatalog.get()
        let image = Glimpse.testdata("samples/screenshot-hurricane-ridge.png")
        // 1 ms: the debug build cannot even fingerprint the query in that time.
        let run = try Glimpse.run(["query", image, "--region", "4,211,712,332", "--deadline-ms", "1", "--db", db])
        #expect(run.status == 4, "\(run.stdout) \(run.stderr)")
        #expect(!run.stdout.contains("no match"), "\(run.stdout)")
        #expect(run.stdout.contains("nothing found yet: the deadline (1 ms) cut the scan short (partial"), "\(run.stdout)")
        let complete = try Glimpse.run(["query", image, "--region", "4,211,712,332", "--deadline-ms", "60000", "--db", db])
        #expect(complete.status == 0, "\(complete.stdout) \(complete.stderr)")
    }

    @Test func noMatchOverTheWholeCatalogStillExits3() throws {
        let db = try Glimpse.sampleCatalog.get()
        let run = try Glimpse.run(["query", Glimpse.testdata("negatives/anemone.jpg"), "--deadline-ms", "60000", "--db", db])
        #expect(run.status == 3, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains(": no match ("), "\(run.stdout)")
    }

    @Test func helpDocumentsThePartialExitCode() throws {
        let query = try Glimpse.run(["query", "--help"])
        #expect(query.stdout.replacingOccurrences(of: "\n", with: " ").contains("4 the --deadline-ms"), "\(query.stdout)")
        let top = try Glimpse.run(["--help"])
        #expect(top.stdout.replacingOccurrences(of: "\n", with: " ").contains("4 partial"), "\(top.stdout)")
    }
}
