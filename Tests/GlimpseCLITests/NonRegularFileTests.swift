import Foundation
import Testing

/// Issue 13, item 1: a FIFO (or any file that is not a regular file) is reported and
/// skipped, never opened in a way that blocks.
@Suite("FIFOs and other non-regular files")
struct NonRegularFileTests {
    /// A folder with one photo and a FIFO named like a photo.
    private func folderWithFIFO() throws -> String {
        let scratch = try Glimpse.scratchFolder("fifo")
        try ShellRun.copy("catalog/food/apricot.jpg", to: scratch + "/f/apricot.jpg")
        #expect(mkfifo(scratch + "/f/p.jpg", 0o644) == 0)
        return scratch
    }

    @Test func matchReportsAFIFONamedLikeAPhotoAndMatchesTheRestWithoutBlocking() throws {
        let scratch = try folderWithFIFO()
        let db = try Glimpse.sampleCatalog.get()
        let run = try ShellRun.run("$GLIMPSE match f --db '\(db)'", in: scratch, timeout: 60)
        #expect(!run.timedOut, "\(run)")
        #expect(run.status == 2, "\(run)")
        let rows = run.stdout.split(separator: "\n")
        #expect(rows.count == 2)
        #expect(rows.contains { $0.contains("\"photo\":\"f/apricot.jpg\",\"status\":\"matched\"") }, "\(run)")
        #expect(rows.contains { $0.contains("\"photo\":\"f/p.jpg\",\"status\":\"error\"") && $0.contains("FIFO") }, "\(run)")
    }

    @Test func indexReportsAFIFOAndIndexesTheRestWithoutBlocking() throws {
        let scratch = try folderWithFIFO()
        let run = try ShellRun.run("$GLIMPSE index f --db g.sqlite", in: scratch, timeout: 60)
        #expect(!run.timedOut, "\(run)")
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.contains("1 added, 0 updated, 0 skipped (unchanged), 1 failed"), "\(run)")
        #expect(run.errorLines.contains { $0.hasPrefix("glimpse: ") && $0.contains("p.jpg") && $0.contains("FIFO") }, "\(run)")
        let list = try ShellRun.run("$GLIMPSE catalog list --db g.sqlite", in: scratch)
        #expect(list.stdout.contains("1 landmark"), "\(list)")
    }

    @Test func inspectQueryAndHashRefuseAFIFOWithOneLineAndExit1() throws {
        let scratch = try folderWithFIFO()
        let db = try Glimpse.sampleCatalog.get()
        for command in ["inspect f/p.jpg", "query f/p.jpg --db '\(db)'", "hash f/p.jpg"] {
            let run = try ShellRun.run("$GLIMPSE \(command)", in: scratch, timeout: 30)
            #expect(!run.timedOut, "\(command): \(run)")
            #expect(run.status == 1, "\(command): \(run)")
            #expect(run.errorLines.count == 1, "\(command): \(run)")
            #expect(run.errorLines.first?.contains("f/p.jpg: cannot read file: is a FIFO (named pipe), not a regular file") == true, "\(command): \(run)")
        }
    }

    @Test func aManifestThatIsAFIFOOrNamesOneIsRefusedWithoutBlocking() throws {
        let scratch = try folderWithFIFO()
        #expect(mkfifo(scratch + "/manifest.json", 0o644) == 0)
        let direct = try ShellRun.run("$GLIMPSE index manifest.json --db g.sqlite", in: scratch, timeout: 30)
        #expect(!direct.timedOut, "\(direct)")
        #expect(direct.status == 1, "\(direct)")
        #expect(direct.errorLines == ["glimpse: manifest.json: cannot read catalog source: is a FIFO (named pipe), not a regular file"], "\(direct)")

        let manifest = #"{"landmarks":[{"id":"pipe","name":"Pipe","images":["f/p.jpg"]}]}"#
        try manifest.write(toFile: scratch + "/names-fifo.json", atomically: true, encoding: .utf8)
        let named = try ShellRun.run("$GLIMPSE index names-fifo.json --db g.sqlite", in: scratch, timeout: 30)
        #expect(!named.timedOut, "\(named)")
        #expect(named.status == 1, "\(named)")
        #expect(named.errorLines.count == 1)
        #expect(named.stderr.contains("p.jpg cannot be read: is a FIFO"), "\(named)")
    }

    @Test func aDatabasePathThatIsAFIFOIsRefusedWithoutBlocking() throws {
        let scratch = try folderWithFIFO()
        #expect(mkfifo(scratch + "/db.sqlite", 0o644) == 0)
        for command in ["catalog list --db db.sqlite", "index f --db db.sqlite"] {
            let run = try ShellRun.run("$GLIMPSE \(command)", in: scratch, timeout: 30)
            #expect(!run.timedOut, "\(command): \(run)")
            #expect(run.status == 1, "\(command): \(run)")
            #expect(run.errorLines == ["glimpse: db.sqlite: not a catalog database: is a FIFO (named pipe), not a regular file"], "\(command): \(run)")
        }
    }
}
