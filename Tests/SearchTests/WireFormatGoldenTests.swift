import Foundation
import GoldenFiles
import PixelBuffers
import Testing
@testable import Catalog
@testable import Search

/// Every wire format against its committed golden file in `testdata/wire/`: the exact
/// bytes the CLI prints and the server sends. Regenerate a file only for an intended
/// format change: `GLIMPSE_UPDATE_GOLDEN=1 swift test --filter WireFormatGoldenTests`.
@Suite struct WireFormatGoldenTests {
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
        try GoldenFile("query-page.json").check(record.jsonLine)
        #expect(try WireJSON.decode(QueryResultRecord.self, from: Array(record.jsonLine.utf8)) == QueryResultRecord(
            query: record.query, results: Self.rows.map { var r = $0; r.score = WireJSON.score(r.score); return r },
            nextPageToken: "R0EB", isPartial: false, elapsedMilliseconds: 12))
    }

    @Test func anInspectReport() throws {
        let rgba = try PixelBuffer(format: .rgba8, width: 2, height: 1, bytes: [UInt8](repeating: 200, count: 8))
        let png = try PNGEncoder().encode(rgba)
        let image = try ImageDecoder().decode(png, source: "two.png")
        let record = DecodeReportRecord(file: "testdata/two pixels.png", image: image, milliseconds: 1.23456, dump: nil)
        try GoldenFile("inspect.json").check(WireJSON.line(record))
        #expect(try WireJSON.decode(DecodeReportRecord.self, from: WireJSON.bytes(record)) == record)
    }

    @Test func aHashLine() throws {
        let record = HashRecord(path: "testdata/catalog/food/apricot.jpg", width: 640, height: 480, quality: 100, informative: true,
                                pdq: String(repeating: "ab", count: 32), ahash: "00ff00ff00ff00ff", dhash: "0123456789abcdef",
                                phash: "fedcba9876543210", histogram: [3, 0, 1], dihedral: ["identity": String(repeating: "ab", count: 32)])
        try GoldenFile("hash.json").check(WireJSON.line(record))
        #expect(try WireJSON.decode(HashRecord.self, from: WireJSON.bytes(record)) == record)
    }

    @Test func anHTTPPageHasNoQueryAndANullToken() throws {
        let record = QueryResultRecord(query: nil, results: [Self.rows[0]], nextPageToken: nil, isPartial: true, elapsedMilliseconds: 501)
        try GoldenFile("query-page-http.json").check(record.jsonLine)
    }

    @Test func aFailedQueryImage() throws {
        let record = QueryResultRecord.failure(query: "empty.jpg", reason: "empty.jpg: empty file", elapsed: .milliseconds(3))
        try GoldenFile("query-failed.json").check(record.jsonLine)
    }

    @Test func anEmptyPageOfAQueryWithTooLittleDetailSaysWhy() throws {
        let record = QueryResultRecord(query: "textures/gravel.jpg", results: [], nextPageToken: nil, isPartial: false, elapsedMilliseconds: 9,
                                       reason: QueryResultRecord.notInformative)
        try GoldenFile("query-not-informative.json").check(record.jsonLine)
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
        try GoldenFile("index-report.json").check(IndexReportRecord(report, elapsed: .milliseconds(1234)).jsonLine)
    }

    @Test func entityDocuments() throws {
        let landmark = EntityDocument(entity: .landmark(Self.landmark), related: [.collection(Self.collection)])
        try GoldenFile("entity-landmark.json").check(landmark.json)
        let withStatistics = EntityDocument(entity: .landmark(Self.landmark), related: [], imageStatistics: LandmarkImageStatistics(images: [
            .init(path: "a.jpg", fileSize: 1234, viewCount: 31, informativeViewCount: 30, meanQuality: 71.25, dominantColorBins: [3, 9])]))
        try GoldenFile("entity-landmark-statistics.json").check(withStatistics.json)
        let collection = EntityDocument(entity: .collection(Self.collection), related: [.landmark(Self.landmark)])
        try GoldenFile("entity-collection.json").check(collection.json)
    }

    @Test func removalListLines() throws {
        let removal = Removal(id: 3, reason: .archivedByUser, date: Date(timeIntervalSince1970: 0),
                              entities: [EntityReference(kind: .landmark, id: "food/apricot")], isUndone: false)
        let undone = Removal(id: 2, reason: .removedByUser, date: Date(timeIntervalSince1970: 1_795_000_000),
                             entities: [EntityReference(kind: .collection, id: "food"), EntityReference(kind: .landmark, id: "a,b \"c\"")],
                             isUndone: true)
        let list = [undone, removal].map { WireJSON.line(RemovalLine($0)) }
        try GoldenFile("removal-list.jsonl").check(list.joined(separator: "\n"))
        for line in list { #expect(try WireJSON.line(WireJSON.decode(RemovalLine.self, from: Array(line.utf8))) == line) }
    }

    @Test func catalogListLines() throws {
        let lines = [VisualSearchResult.landmark(Self.landmark), .collection(Self.collection)].map { WireJSON.line(EntitySummary($0)) }
        try GoldenFile("catalog-list.jsonl").check(lines.joined(separator: "\n"))
        for line in lines { #expect(try WireJSON.line(WireJSON.decode(EntitySummary.self, from: Array(line.utf8))) == line) }
    }

    @Test func benchmarkLines() throws {
        let search = BenchmarkRecord(views: 25_758_777, landmarks: 1_000_046, indexBytes: 3_142_570_794, queries: 29,
                                     firstStage: .init(lists: 8192, bytes: 515_175_540, probes: 128, innerProbeFactor: 4, radius: 48,
                                                       maximumCandidates: 1024, top1Agreement: 0.965_517, top10Agreement: 0.981_1),
                                     rows: [.init(name: "exact search, 29 real queries, default query layout", isa: "avx512", threads: 1,
                                                  p50Milliseconds: 61.234_567, p99Milliseconds: 80.5, meanMilliseconds: 70.123_4, meanMatched: 3.456, meanComparedPairs: 123_456)])
        try GoldenFile("bench-search.json").check(WireJSON.line(search))
        let scan = BenchmarkRecord(codes: 1_000_000, kernel: "avx512", check: 1, rows: [
            .init(name: "distances, one UInt16 per code", bestMilliseconds: 0.3921, medianMilliseconds: 0.409, codesPerSecond: 2_550_369_803.3)])
        try GoldenFile("bench-scan.json").check(WireJSON.line(scan))
        let fingerprint = FingerprintTimingRecord(file: "testdata/catalog/landmarks/hurricane-ridge.jpg", medianMilliseconds: 1.761_234,
                                                  bestMilliseconds: 1.61, runs: 30, scale: "1/4", decodedWidth: 512, decodedHeight: 384,
                                                  views: 31, decodeOnly: false, isa: "avx512")
        try GoldenFile("bench-fingerprint.json").check(WireJSON.line(fingerprint))
        #expect(try WireJSON.decode(BenchmarkRecord.self, from: WireJSON.bytes(search)) == search)
    }
}
