import Foundation
import Testing

/// Issue 13, item 10: a catalog stores image paths relative to its database's folder, so
/// its output does not depend on where it was built and it survives being moved with its
/// images.
@Suite("Catalog paths independent of where it was built")
struct CatalogLocationTests {
    @Test func pathsAreShownRelativeToTheDatabaseAndSurviveMovingTheFolder() throws {
        let scratch = try Glimpse.scratchFolder("location")
        let built = scratch + "/built-here"
        try ShellRun.copy("catalog/food/apricot.jpg", to: built + "/photos/apricot.jpg")
        let index = try Glimpse.run(["index", "photos", "--db", "g.sqlite"], in: built)
        #expect(index.status == 0, "\(index.stderr)")
        let open = try Glimpse.run(["open", "landmark:apricot", "--db", "g.sqlite"], in: built)
        #expect(open.stdout.contains("thumbnail: photos/apricot.jpg\n"), "\(open.stdout)")
        #expect(!open.stdout.contains(scratch), "\(open.stdout)")

        let moved = scratch + "/moved-there"
        try FileManager.default.moveItem(atPath: built, toPath: moved)
        let again = try Glimpse.run(["export", "landmark:apricot", "--db", "g.sqlite"], in: moved)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains(#""thumbnail":"photos/apricot.jpg""#), "\(again.stdout)")
        #expect(again.stdout.contains(#""images":["photos/apricot.jpg"]"#), "\(again.stdout)")
        // The image is found at its new place: the PNG thumbnail renders and re-indexing
        // skips the unchanged file.
        let png = try Glimpse.run(["export", "landmark:apricot", "--as", "png", "--out", "t.png", "--db", "g.sqlite"], in: moved)
        #expect(png.status == 0, "\(png.stderr)")
        let from = try Glimpse.run(["open", "landmark:apricot", "--db", "moved-there/g.sqlite"], in: scratch)
        #expect(from.stdout.contains("thumbnail: moved-there/photos/apricot.jpg\n"), "\(from.stdout)")
        let reindex = try Glimpse.run(["index", "photos", "--db", "g.sqlite"], in: moved)
        #expect(reindex.stdout.contains("0 added, 0 updated, 1 skipped (unchanged), 0 failed"), "\(reindex.stdout)")
    }
}
