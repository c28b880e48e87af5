import Foundation
import Testing

/// Issue 13, item 9 (`hash`): the same exit codes as `query`/`inspect` for the same
/// file, and CSV rows whose path field is quoted as RFC 4180 says.
@Suite("hash contract")
struct HashContractTests {
    @Test func anEmptyFileAloneExits1LikeQueryAndInspect() throws {
        let scratch = try Glimpse.scratchFolder("hash-empty")
        let empty = scratch + "/empty.jpg"
        FileManager.default.createFile(atPath: empty, contents: Data())
        let hash = try Glimpse.run(["hash", empty])
        let inspect = try Glimpse.run(["inspect", empty])
        let query = try Glimpse.run(["query", empty, "--db", try Glimpse.sampleCatalog.get()])
        #expect(hash.status == 1, "\(hash.stderr)")
        #expect(inspect.status == 1)
        #expect(query.status == 1)
        #expect(hash.errorLines.count == 1)
        let mixed = try Glimpse.run(["hash", empty, Glimpse.testdata("catalog/food/apricot.jpg")])
        #expect(mixed.status == 2, "some failed, the others hashed: \(mixed.stderr)")
        #expect(mixed.stdout.split(separator: "\n").count == 1)
    }

    @Test func pathsWithCommasQuotesAndNewlinesAreQuotedAsRFC4180Says() throws {
        let scratch = try Glimpse.scratchFolder("hash-csv")
        let names = ["a,b.jpg", "say \"cheese\".jpg", "two\nlines.jpg", "plain.jpg"]
        for name in names { try ShellRun.copy("catalog/food/apricot.jpg", to: scratch + "/" + name) }
        let run = try Glimpse.run(["hash"] + names, in: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        let expected = ["\"a,b.jpg\"", "\"say \"\"cheese\"\".jpg\"", "\"two\nlines.jpg\"", "plain.jpg"]
        for field in expected {
            #expect(run.stdout.contains("," + field + "\n"), "\(field) in \(run.stdout)")
        }
        // Four records of three fields each, read back with a CSV parser.
        let records = CSVRecords.parse(run.stdout)
        #expect(records.count == 4)
        #expect(records.allSatisfy { $0.count == 3 }, "\(records)")
        #expect(records.map { $0.count > 2 ? $0[2] : "" } == names)
    }
}

/// A small RFC 4180 reader for the tests (records separated by newlines outside quotes).
enum CSVRecords {
    static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var characters = Array(text)[...]
        while let c = characters.popFirst() {
            if inQuotes {
                if c == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { inQuotes = false }
                } else { field.append(c) }
            } else if c == "\"" { inQuotes = true
            } else if c == "," { fields.append(field); field = ""
            } else if c == "\n" { fields.append(field); records.append(fields); fields = []; field = ""
            } else { field.append(c) }
        }
        if !field.isEmpty || !fields.isEmpty { fields.append(field); records.append(fields) }
        return records
    }
}
