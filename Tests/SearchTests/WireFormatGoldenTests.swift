import Foundation
import PixelBuffers
import Testing
@testable import Catalog
@testable import Search

/// Every wire format against its committed golden file in `testdata/wire/`: the exact
/// bytes the CLI prints and the server sends. Regenerate a file only for an intended
/// format change: `GLIMPSE_UPDATE_GOLDEN=1 swift test --filter WireFormatGoldenTests`.
@Suite struct WireFormatGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/wire")

    static func check(_ text: String, golden name: String) throws {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["GLIMPSE_UPDATE_GOLDEN"] == "1" {
            try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(text + "\n" == expected, "\(name) differs from the golden file")
    }

    static let landmark = LandmarkEntity(
        id: "landmarks/hurricane-ridge", name: "Hurricane Ridge", continent: "North America",
        description: "Snowfield below the firs, \"Olympic\" National Park.", keywords: ["mountain", "snow"],
        location: GeoLocation(latitude: 47.9697, longitude: -123.4985),
        referenceImages: [ReferenceImage(path: "testdata/catalog/landmarks/hurricane-ridge.jpg", fingerprint: nil)])
    static let collection = CollectionEntity(id: "landmarks", name: "Landmarks and landscapes", landmarkIDs: ["landmarks/hurricane-ridge"],
                                             thumbnailPath: "testdata/catalog/landmarks/hurricane-ridge.jpg")

    static let rows = [
        SearchResultRow(kind: .landmark, id: "landmarks/hurricane-ridge", title: "Hurricane Ridge", subtitle: "North America",
                        score: 0.662_448, url: "glimpse://landmark/landmarks%2Fhurricane-ridge"),
        SearchResultRow(kind: .collection, id: "landmarks", title: "Landmarks and landscapes", subtitle: nil,
                        score: 0.6624, url: "glimpse://collection/landmarks"),
    ]

    @Test func aQueryPage() throws {
        let record = QueryResultRecord(query: "testdata/samples/screenshot-hurricane-ridge.png", results: Self.rows,
                                       nextPageToken: "R0EB", isPartial: false, elapsedMilliseconds: 12)
        try Self.check(record.jsonLine, golden: "query-page.json")
        #expect(try WireJSON.decode(QueryResultRecord.self, from: Array(record.jsonLine.utf8)) == QueryResultRecord(
            query: record.query, results: Self.rows.map { var r = $0; r.score = WireJSON.score(r.score); return r },
            nextPageToken: "R0EB", isPartial: false, elapsedMilliseconds: 12))
    }

    @Test func anInspectReport() throws {
        let rgba = try PixelBuffer(format: .rgba8, width: 2, height: 1, bytes: [UInt8](repeating: 200, count: 8))
        let png = try PNGEncoder().encode(rgba)
        let image = try ImageDecoder().decode(png, source: "two.png")
        let record = DecodeReportRecord(file: "testdata/two pixels.png", image: image, milliseconds: 1.23456, dump: nil)
        try Self.check(WireJSON.line(record), golden: "inspect.json")
        #expect(try WireJSON.decode(DecodeReportRecord.self, from: WireJSON.bytes(record)) == record)
    }

    @Test func aHashLine() throws {
        let record = HashRecord(path: "testdata/catalog/food/apricot.jpg", width: 640, height: 480, quality: 100, informative: true,
                                pdq: String(repeating: "ab", count: 32), ahash: "00ff00ff00ff00ff", dhash: "0123456789abcdef",
                                phash: "fedcba9876543210", histogram: [3, 0, 1], dihedral: ["identity": String(repeating: "ab", count: 32)])
        try Self.check(WireJSON.line(record), golden: "hash.json")
        #expect(try WireJSON.decode(HashRecord.self, from: WireJSON.bytes(record)) == record)
    }

    @Test func anHTTPPageHasNoQueryAndANullToken() throws {
        let record = QueryResultRecord(query: nil, results: [Self.rows[0]], nextPageToken: nil, isPartial: true, elapsedMilliseconds: 501)
        try Self.check(record.jsonLine, golden: "query-page-http.json")
    }

    @Test func aFailedQueryImage() throws {
        let record = QueryResultRecord.failure(query: "empty.jpg", reason: "empty.jpg: empty file", elapsed: .milliseconds(3))
        try Self.check(record.jsonLine, golden: "query-failed.json")
    }

    @Test func anEmptyPageOfAQueryWithTooLittleDetailSaysWhy() throws {
        let record = QueryResultRecord(query: "textures/gravel.jpg", results: [], nextPageToken: nil, isPartial: false, elapsedMilliseconds: 9,
                                       reason: QueryResultRecord.notInformative)
        try Self.check(record.jsonLine, golden: "query-not-informative.json")
        #expect(try WireJSON.decode(QueryResultRecord.self, from: Array(record.jsonLine.utf8)) == record)
    }

    @Test func anIndexRunReport() throws {
        var report = IndexReport(version: CatalogVersion(catalogID: "c", generation: 4, tokenKey: SIMD2(1, 2)))
        report.added = ["textures/gravel.png", "textures/bands.png"]
        report.unchanged = ["photos/a.jpg"]
        report.failed = [.init(path: "photos/bad.jpg", reason: "photos/bad.jpg: truncated JPEG file: premature end")]
        report.unsearchable = ["textures/gravel.png"]
        report.fingerprinted = 2
        report.removedLandmarks = ["old/one"]
        report.restored = [EntityReference(kind: .collection, id: "textures")]
        try Self.check(IndexReportRecord(report, elapsed: .milliseconds(1234)).jsonLine, golden: "index-report.json")
    }

    @Test func entityDocuments() throws {
        let landmark = EntityDocument(entity: .landmark(Self.landmark), related: [.collection(Self.collection)])
        try Self.check(landmark.json, golden: "entity-landmark.json")
        let withStatistics = EntityDocument(entity: .landmark(Self.landmark), related: [], imageStatistics: LandmarkImageStatistics(images: [
            .init(path: "a.jpg", fileSize: 1234, viewCount: 31, informativeViewCount: 30, meanQuality: 71.25, dominantColorBins: [3, 9])]))
        try Self.check(withStatistics.json, golden: "entity-landmark-statistics.json")
        let collection = EntityDocument(entity: .collection(Self.collection), related: [.landmark(Self.landmark)])
        try Self.check(collection.json, golden: "entity-collection.json")
    }

    @Test func errorsAndRemovals() throws {
        try Self.check(WireJSON.line(ErrorBody(error: "not_found", message: "glimpse://landmark/nope: no such landmark")), golden: "error.json")
        let removal = Removal(id: 3, reason: .archivedByUser, date: Date(timeIntervalSince1970: 0),
                              entities: [EntityReference(kind: .landmark, id: "food/apricot")], isUndone: false)
        try Self.check(WireJSON.line(RemovalBody(removal)), golden: "removal.json")
        try Self.check(WireJSON.line(RemovalBody(nil)), golden: "removal-none.json")
        let undone = Removal(id: 2, reason: .removedByUser, date: Date(timeIntervalSince1970: 1_795_000_000),
                             entities: [EntityReference(kind: .collection, id: "food"), EntityReference(kind: .landmark, id: "a,b \"c\"")],
                             isUndone: true)
        let list = [undone, removal].map { WireJSON.line(RemovalBody.Item($0)) }
        try Self.check(list.joined(separator: "\n"), golden: "removal-list.jsonl")
        for line in list { #expect(try WireJSON.line(WireJSON.decode(RemovalBody.Item.self, from: Array(line.utf8))) == line) }
    }

    @Test func catalogListLines() throws {
        let lines = [VisualSearchResult.landmark(Self.landmark), .collection(Self.collection)].map { WireJSON.line(EntitySummary($0)) }
        try Self.check(lines.joined(separator: "\n"), golden: "catalog-list.jsonl")
        for line in lines { #expect(try WireJSON.line(WireJSON.decode(EntitySummary.self, from: Array(line.utf8))) == line) }
    }

    @Test func benchmarkLines() throws {
        let search = BenchmarkRecord(views: 25_758_777, landmarks: 1_000_046, indexBytes: 3_142_570_794, queries: 29,
                                     firstStage: .init(lists: 8192, bytes: 515_175_540, probes: 128, innerProbeFactor: 4, radius: 48,
                                                       maximumCandidates: 1024, top1Agreement: 0.965_517, top10Agreement: 0.981_1),
                                     rows: [.init(name: "exact search, 29 real queries, default query layout", isa: "avx512", threads: 1,
                                                  p50Milliseconds: 61.234_567, p99Milliseconds: 80.5, meanMatched: 3.456, meanComparedPairs: 123_456)])
        try Self.check(WireJSON.line(search), golden: "bench-search.json")
        let scan = BenchmarkRecord(codes: 1_000_000, kernel: "avx512", check: 1, rows: [
            .init(name: "distances, one UInt16 per code", bestMilliseconds: 0.3921, medianMilliseconds: 0.409, codesPerSecond: 2_550_369_803.3)])
        try Self.check(WireJSON.line(scan), golden: "bench-scan.json")
        let fingerprint = FingerprintTimingRecord(file: "testdata/catalog/landmarks/hurricane-ridge.jpg", medianMilliseconds: 1.761_234,
                                                  bestMilliseconds: 1.61, runs: 30, scale: "1/4", decodedWidth: 512, decodedHeight: 384,
                                                  views: 31, decodeOnly: false, isa: "avx512")
        try Self.check(WireJSON.line(fingerprint), golden: "bench-fingerprint.json")
        #expect(try WireJSON.decode(BenchmarkRecord.self, from: WireJSON.bytes(search)) == search)
    }
}
