import Catalog
import Foundation
import Matching
import Testing
@testable import Search

@Suite("Batch match rows, results file and photo folder")
struct BatchOutputTests {
    static let row = SearchResultRow(kind: .landmark, id: "a/b \"c\"", title: "Tour, \"Eiffel\"", subtitle: nil, score: 0.91234,
                                     url: EntityReference(kind: .landmark, id: "a/b \"c\"").url)

    @Test func csvScoresHaveFourDecimalsAndFieldsAreQuotedOnlyWhenNeeded() {
        #expect(CSVText.score(0.123456) == "0.1235")
        #expect(CSVText.score(.nan) == "0.0000")
        #expect(CSVText.field("plain") == "plain")
        #expect(CSVText.field("a,\"b\"\nc") == "\"a,\"\"b\"\"\nc\"")
    }

    @Test func aRecordSurvivesAJSONLinesRoundTrip() throws {
        let record = PhotoMatchRecord.matches([Self.row], photo: "photos/x, \"y\".jpg")
        #expect(record.jsonLine.hasPrefix(#"{"error":null,"matches":[{"id":"#))
        #expect(record.jsonLine.hasSuffix(#""photo":"photos/x, \"y\".jpg","status":"matched"}"#))
        let parsed = try #require(PhotoMatchRecord(jsonLine: record.jsonLine))
        #expect(parsed.photo == record.photo && parsed.status == .matched)
        #expect(parsed.matches.first?.id == Self.row.id && parsed.matches.first?.score == 0.9123)
        #expect(PhotoMatchRecord(jsonLine: "{\"photo\": 1}") == nil)
    }

    @Test func aRecordSurvivesACSVRoundTripWithQuotedFields() throws {
        let failed = PhotoMatchRecord.failure("x.jpg: corrupt JPEG data: bad \"marker\", really", photo: "x.jpg")
        #expect(try #require(PhotoMatchRecord(csvLine: failed.csvLine)) == failed)
        let matched = PhotoMatchRecord.matches([Self.row], photo: "p,q.jpg")
        let parsed = try #require(PhotoMatchRecord(csvLine: matched.csvLine))
        #expect(parsed.photo == "p,q.jpg" && parsed.matches.map(\.id) == [Self.row.id] && parsed.matches.first?.title == Self.row.title)
        #expect(PhotoMatchRecord(csvLine: PhotoMatchRecord.csvHeader) == nil)
    }

    @Test func theResultsFileResumesAfterCompleteRowsAndCutsAPartialOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("rows.jsonl").path
        let a = PhotoMatchRecord(photo: "a.jpg", status: .noMatch)
        let b = PhotoMatchRecord.failure("b.jpg: empty file", photo: "b.jpg")
        do {
            let file = try MatchResultFile(path: path, format: .jsonl)
            #expect(file.existingRecords.isEmpty)
            try file.append(a)
            try file.append(b)
        }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"error\":null,\"matches\":[],\"photo\":\"c.j".utf8))
        try handle.close()
        let resumed = try MatchResultFile(path: path, format: .jsonl)
        #expect(resumed.existingRecords == [a, b])
        #expect(resumed.donePhotos == ["a.jpg", "b.jpg"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == a.jsonLine + "\n" + b.jsonLine + "\n")
        // The wrong format is refused, and the file kept.
        #expect(throws: BatchMatchError.self) { try MatchResultFile(path: path, format: .csv) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == a.jsonLine + "\n" + b.jsonLine + "\n")
    }

    @Test func thePhotoFolderFindsImagesByTheirBytesAndNamesButNotHiddenOnes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("testdata")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-photos-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch + "/deep/er", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch + "/.hidden", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("catalog/food/apricot.jpg").path, toPath: scratch + "/deep/er/photo")
        try FileManager.default.copyItem(atPath: root.appendingPathComponent("catalog/food/apricot.jpg").path, toPath: scratch + "/.hidden/x.jpg")
        try Data("text".utf8).write(to: URL(fileURLWithPath: scratch + "/fake.JPG"))
        try Data("text".utf8).write(to: URL(fileURLWithPath: scratch + "/readme.txt"))
        let folder = try PhotoFolder(scanning: scratch + "/")
        #expect(folder.photos == [scratch + "/deep/er/photo", scratch + "/fake.JPG"])
        #expect(folder.otherFileCount == 1)
        #expect(throws: BatchMatchError.unreadableFolder(scratch + "/readme.txt", reason: "not a folder")) {
            try PhotoFolder(scanning: scratch + "/readme.txt")
        }
    }
}
