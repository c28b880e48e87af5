import Foundation
import Testing

/// Issue 13, item 7: `index` and `match` report and count every file and folder they
/// could not read, exit 2, and a file that failed never becomes a landmark.
@Suite("Unreadable files and folders")
struct UnreadableEntryTests {
    /// Two good photos, an empty `.jpg`, a text file named `.jpg`, a truncated JPEG, a
    /// link to nothing, and a README that is not a photo (ignored, not an error).
    private func mixedFolder() throws -> String {
        let scratch = try ShellRun.sharedScratchFolder("unreadable")
        let photos = scratch + "/photos"
        try ShellRun.copy("catalog/food/apricot.jpg", to: photos + "/apricot.jpg")
        try ShellRun.copy("catalog/food/avocado.jpg", to: photos + "/sub/avocado.jpg")
        try ShellRun.copy("jpeg/corrupt_truncated_baseline.jpg", to: photos + "/broken.jpg")
        FileManager.default.createFile(atPath: photos + "/empty.jpg", contents: Data())
        try "not a photo\n".write(toFile: photos + "/text.jpg", atomically: true, encoding: .utf8)
        try "notes\n".write(toFile: photos + "/README.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: photos + "/gone.jpg", withDestinationPath: photos + "/nowhere.jpg")
        return scratch
    }

    @Test func indexReportsEveryFileItCouldNotUseAndNoneBecomesALandmark() throws {
        let scratch = try mixedFolder()
        let run = try ShellRun.run("$GLIMPSE index photos --db g.sqlite", in: scratch)
        #expect(run.status == 2, "\(run)")
        #expect(run.stdout.contains("2 added, 0 updated, 0 skipped (unchanged), 4 failed"), "\(run)")
        let failures = run.errorLines.filter { $0.hasPrefix("glimpse: ") }
        for (file, reason) in [("broken.jpg", "truncated JPEG"), ("empty.jpg", "empty file"), ("text.jpg", "not an image file"),
                               ("gone.jpg", "cannot read file")] {
            #expect(failures.contains { $0.contains("photos/\(file): \(reason)") }, "\(file): \(failures)")
        }
        let list = try ShellRun.run("$GLIMPSE catalog list --db g.sqlite", in: scratch)
        #expect(list.stdout.contains("2 landmarks, 1 collection."), "\(list)")
        #expect(!list.stdout.contains("broken"), "\(list)")
    }

    @Test func matchAndIndexReportAnUnreadableSubFolderCountItAndExit2() throws {
        let scratch = try mixedFolder()
        let locked = scratch + "/photos/locked"
        try ShellRun.copy("catalog/food/cherries.jpg", to: locked + "/cherries.jpg")
        chmod(locked, 0)
        defer { chmod(locked, 0o755) }
        let source = try Glimpse.sampleCatalog.get()
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: scratch + "/catalog.sqlite" + suffix)
            chmod(scratch + "/catalog.sqlite" + suffix, 0o666)
        }

        let match = try ShellRun.run("$GLIMPSE match photos --db catalog.sqlite", in: scratch, unprivileged: true)
        #expect(match.status == 2, "\(match)")
        #expect(match.errorLines.contains("glimpse: photos/locked: cannot read folder: Permission denied"), "\(match)")
        #expect(match.stderr.contains("1 unreadable folder"), "\(match)")
        #expect(match.stdout.contains("\"photo\":\"photos/apricot.jpg\",\"status\":\"matched\""), "\(match)")

        let index = try ShellRun.run("$GLIMPSE index photos --db g.sqlite", in: scratch, unprivileged: true)
        #expect(index.status == 2, "\(index)")
        #expect(index.errorLines.contains { $0.hasSuffix("photos/locked: cannot read folder: Permission denied") }, "\(index)")
        #expect(index.stdout.contains("2 added, 0 updated, 0 skipped (unchanged), 5 failed"), "\(index)")
    }

    @Test func aFailedFileThatLaterReadsWellBecomesALandmarkThen() throws {
        let scratch = try mixedFolder()
        let first = try ShellRun.run("$GLIMPSE index photos --db g.sqlite", in: scratch)
        #expect(first.status == 2, "\(first)")
        try FileManager.default.removeItem(atPath: scratch + "/photos/broken.jpg")
        try ShellRun.copy("catalog/food/cherries.jpg", to: scratch + "/photos/broken.jpg")
        let second = try ShellRun.run("$GLIMPSE index photos --db g.sqlite", in: scratch)
        #expect(second.status == 2, "the other failures are still there: \(second)")
        #expect(second.stdout.contains("1 added, 0 updated, 2 skipped (unchanged), 3 failed"), "\(second)")
        let list = try ShellRun.run("$GLIMPSE catalog list --db g.sqlite", in: scratch)
        #expect(list.stdout.contains("3 landmarks, 1 collection."), "\(list)")
        #expect(list.stdout.contains("landmark    broken"), "\(list)")
    }
}
