import Foundation
import Testing

/// Issue 13, item 3: files whose names are not UTF-8 work with every command, and their
/// names are shown with the raw bytes escaped (`bad\xFFname.jpg`).
@Suite("File names that are not UTF-8")
struct NonUTF8FileNameTests {
    /// `u8/bad<0xFF>name.jpg` (a copy of apricot.jpg), made by the shell.
    private func folder() throws -> String {
        let scratch = try Glimpse.scratchFolder("non-utf8")
        try ShellRun.copy("catalog/food/apricot.jpg", to: scratch + "/apricot.jpg")
        let made = try ShellRun.run(#"mkdir u8 && cp apricot.jpg "$(printf 'u8/bad\377name.jpg')""#, in: scratch)
        #expect(made.status == 0, "\(made)")
        return scratch
    }

    private let name = #"u8/bad\xFFname.jpg"#
    private let argument = #""$(printf 'u8/bad\377name.jpg')""#

    @Test func queryFindsTheLandmarkAndShowsTheNameEscaped() throws {
        let scratch = try folder()
        let db = try Glimpse.sampleCatalog.get()
        let run = try ShellRun.run("$GLIMPSE query \(argument) --db '\(db)'", in: scratch)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix(name + ": results 1–"), "\(run)")
        #expect(run.stdout.contains("food/apricot"), "\(run)")
    }

    @Test func hashAndInspectReadTheFileAndShowTheNameEscaped() throws {
        let scratch = try folder()
        let hash = try ShellRun.run("$GLIMPSE hash \(argument)", in: scratch)
        #expect(hash.status == 0, "\(hash)")
        #expect(hash.stdout.hasSuffix("," + name + "\n"), "\(hash)")
        let inspect = try ShellRun.run("$GLIMPSE inspect \(argument)", in: scratch)
        #expect(inspect.status == 0, "\(inspect)")
        #expect(inspect.stdout.hasPrefix("file:          " + name + "\n"), "\(inspect)")
    }

    @Test func matchGivesTheFileARowWithTheNameEscaped() throws {
        let scratch = try folder()
        let db = try Glimpse.sampleCatalog.get()
        let run = try ShellRun.run("$GLIMPSE match u8 --db '\(db)' --out rows.jsonl && $GLIMPSE match u8 --db '\(db)' --out rows.jsonl", in: scratch)
        #expect(run.status == 0, "\(run)")
        let rows = try String(contentsOfFile: scratch + "/rows.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 1, "resumed, not redone: \(rows)")
        #expect(rows.first?.contains(#""photo":"u8/bad\\xFFname.jpg","status":"matched""#) == true, "\(rows)")
        #expect(run.stderr.contains("1 already in rows.jsonl"), "\(run)")
    }

    @Test func indexMakesTheFileALandmarkWhoseIDShowsTheNameEscaped() throws {
        let scratch = try folder()
        let run = try ShellRun.run("$GLIMPSE index u8 --db g.sqlite && $GLIMPSE catalog list --db g.sqlite", in: scratch)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("1 added, 0 updated, 0 skipped (unchanged), 0 failed"), "\(run)")
        #expect(run.stdout.contains(#"landmark  bad\xFFname"#), "\(run)")
        // The stored path keeps the bytes: the landmark's thumbnail renders.
        let export = try ShellRun.run(#"$GLIMPSE export 'landmark:bad\xFFname' --as png --out t.png --db g.sqlite"#, in: scratch)
        #expect(export.status == 0, "\(export)")
    }
}
