import Catalog
import Fingerprints
import Foundation
import HTTPTypes
import Search
import Server
import SQLiteStore
import Testing

/// `POST /v1/search`, `GET /v1/search?page_token=…` and `POST /v1/search/fingerprint`
/// against a real server on the sample catalog.
@Suite struct SearchEndpointTests {
    @Test func anUploadedImageAnswersTheSamePageTypeAsTheCLI() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)")
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "application/json; charset=utf-8")
        let page = try WireJSON.decode(QueryResultRecord.self, from: answer.body)
        #expect(page.query == nil && page.error == nil)
        #expect(page.results.first?.id == "landmarks/hurricane-ridge")
        #expect(page.results.first?.url == "glimpse://landmark/landmarks%2Fhurricane-ridge")
        let object = try answer.json()
        #expect(Set(object.keys) == ["results", "next_page_token", "partial", "elapsed_ms"])
        // Same bytes as encoding the decoded page again: one wire format.
        #expect(WireJSON.bytes(page) == answer.body)
    }

    @Test func regionFractionAndLabelsAreAccepted() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.search(file: Harness.screenshot, query: "region_fraction=0.0056,0.1426,0.9889,0.2243&labels=snow,mountain&page_size=3")
        #expect(answer.status == 200)
        let page = try WireJSON.decode(QueryResultRecord.self, from: answer.body)
        #expect(page.results.count <= 3)
        #expect(page.results.first?.id == "landmarks/hurricane-ridge")
    }

    @Test func pagesContinueWithoutReuploadingAndCoverTheWholeRanking() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let all = try WireJSON.decode(QueryResultRecord.self, from: try await server.search(
            file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)&page_size=100").body)
        #expect(all.results.count >= 2, "the sample query has several results")
        var seen: [SearchResultRow] = []
        var answer = try await server.search(file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)&page_size=1")
        while true {
            #expect(answer.status == 200)
            let page = try WireJSON.decode(QueryResultRecord.self, from: answer.body)
            seen += page.results
            guard let token = page.nextPageToken else { break }
            #expect(page.results.count == 1)
            answer = try await server.request(.get, "/v1/search?page_token=\(token)")
        }
        #expect(seen.map(\.id) == all.results.map(\.id))
    }

    @Test func anExactSearchAnswersTheSameAndItsTokenContinuesExactly() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let query = "region=\(Harness.screenshotRegion)&page_size=1"
        let normal = try WireJSON.decode(QueryResultRecord.self, from: try await server.search(file: Harness.screenshot, query: query).body)
        let exact = try WireJSON.decode(QueryResultRecord.self, from: try await server.search(file: Harness.screenshot, query: query + "&exact=true").body)
        // The sample catalog is far below the first stage's size: both scan every view.
        #expect(normal.results == exact.results && !exact.results.isEmpty)
        let token = try #require(exact.nextPageToken)
        #expect(token != normal.nextPageToken, "the token carries the mode")
        let next = try await server.request(.get, "/v1/search?page_token=\(token)")
        #expect(next.status == 200)
    }

    @Test func aMinimumScoreShowsWeakerMatchesAndItsTokensKeepIt() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        // The top-left quarter of the otter photo scores its landmark under the calibrated 0.40.
        let otter = Harness.testdata("catalog/animals/otter.jpg"), quarter = "region_fraction=0,0,0.5,0.5"
        func page(_ file: String, _ query: String) async throws -> QueryResultRecord {
            let answer = try await server.search(file: file, query: query)
            #expect(answer.status == 200, "\(query)")
            return try WireJSON.decode(QueryResultRecord.self, from: answer.body)
        }
        let landmarks = { (page: QueryResultRecord) in page.results.filter { $0.kind == .landmark } }
        #expect(try await page(otter, quarter).results.isEmpty)
        let found = try await page(otter, quarter + "&min_score=0.3")
        #expect(landmarks(found).map(\.id) == ["animals/otter"] && landmarks(found).allSatisfy { $0.score >= 0.3 && $0.score < 0.4 })
        let wide = try await page(otter, quarter + "&min_score=0.05&page_size=100")
        #expect(landmarks(wide).count > 1 && landmarks(wide).first?.id == "animals/otter" && landmarks(wide).allSatisfy { $0.score >= 0.05 })
        let region = "region=\(Harness.screenshotRegion)"
        #expect(!(try await page(Harness.screenshot, region).results.isEmpty))
        #expect(try await page(Harness.screenshot, region + "&min_score=0.7").results.isEmpty, "nothing scores 0.7")
        // Page by page with its tokens, the wide search covers the same ranking: the token carries min_score.
        var seen: [SearchResultRow] = []
        var answer = try await server.search(file: otter, query: quarter + "&min_score=0.05&page_size=1")
        while true {
            let next = try WireJSON.decode(QueryResultRecord.self, from: answer.body)
            seen += next.results
            guard let token = next.nextPageToken else { break }
            answer = try await server.request(.get, "/v1/search?page_token=\(token)")
            #expect(answer.status == 200)
        }
        #expect(seen.map(\.id) == wide.results.map(\.id))
        for bad in ["1.5", "-0.1", "nan", "high"] {
            let refused = try await server.search(file: Harness.screenshot, query: "min_score=\(bad)")
            #expect(refused.status == 400 && refused.errorCode == "invalid_parameter", "\(bad)")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("min_score must be a number in 0…1"), "\(bad)")
        }
    }

    @Test func aTokenIssuedByOneReplicaContinuesOnAnother() async throws {
        let catalog = try await Harness.sharedCatalog.value
        let first = try await Harness.start(catalog: catalog)
        let second = try await Harness.start(catalog: catalog)
        defer { Task { await first.stop(); await second.stop() } }
        let page = try WireJSON.decode(QueryResultRecord.self, from: try await first.search(
            file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)&page_size=1").body)
        let token = try #require(page.nextPageToken)
        let onFirst = try await first.request(.get, "/v1/search?page_token=\(token)")
        let onSecond = try await second.request(.get, "/v1/search?page_token=\(token)")
        #expect(onSecond.status == 200)
        let a = try WireJSON.decode(QueryResultRecord.self, from: onFirst.body)
        let b = try WireJSON.decode(QueryResultRecord.self, from: onSecond.body)
        #expect(a.results == b.results && a.nextPageToken == b.nextPageToken)
    }

    @Test func malformedTamperedOrMissingTokensAre400() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let page = try WireJSON.decode(QueryResultRecord.self, from: try await server.search(
            file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)&page_size=1").body)
        let token = try #require(page.nextPageToken)
        var tampered = Array(token.utf8)
        let middle = tampered.count / 2
        tampered[middle] = tampered[middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        for bad in [String(decoding: tampered, as: UTF8.self), "not-a-token", String(token.dropLast(4)), String(repeating: "A", count: 20_000)] {
            let answer = try await server.request(.get, "/v1/search?page_token=\(bad)")
            #expect(answer.status == 400, "\(bad.prefix(20))…")
            #expect(answer.errorCode == "invalid_page_token")
        }
        let missing = try await server.request(.get, "/v1/search")
        #expect(missing.status == 400 && missing.errorCode == "missing_parameter")
    }

    @Test func aTokenOfAnotherCatalogSaysSoRatherThanAltered() async throws {
        let first = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        let other = try await Harness.start(catalog: try await Harness.newCatalog())
        defer { Task { await first.stop(); await other.stop() } }
        let page = try WireJSON.decode(QueryResultRecord.self, from: try await first.search(
            file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)&page_size=1").body)
        let token = try #require(page.nextPageToken)
        let answer = try await other.request(.get, "/v1/search?page_token=\(token)")
        #expect(answer.status == 400 && answer.errorCode == "invalid_page_token")
        #expect(answer.text.contains("different catalog"), "\(answer.text)")
    }

    @Test func aTokenOfAChangedCatalogIs410Gone() async throws {
        let catalog = try await Harness.newCatalog()
        let server = try await Harness.start(catalog: catalog)
        defer { Task { await server.stop() } }
        let page = try WireJSON.decode(QueryResultRecord.self, from: try await server.search(
            file: Harness.screenshot, query: "region=\(Harness.screenshotRegion)&page_size=1").body)
        let token = try #require(page.nextPageToken)
        let before = try #require(server.state.holder.index?.prepared.version.generation)
        // Another process changes the catalog.
        try await SQLiteEntityStore(path: catalog).remove(EntityReference(kind: .landmark, id: "food/apricot"), reason: .archivedByUser)
        let deadline = ContinuousClock.now + .seconds(10)
        while server.state.holder.index?.prepared.version.generation == before && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let answer = try await server.request(.get, "/v1/search?page_token=\(token)")
        #expect(answer.status == 410)
        #expect(answer.errorCode == "page_token_expired")
    }

    @Test func aFingerprintLookupFindsTheLandmarkWithoutPixels() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let view = try #require(try ImageFingerprinter.query.fingerprint(file: Harness.testdata("catalog/landmarks/hurricane-ridge.jpg")).views.first)
        let pdqOnly = try await server.request(.post, "/v1/search/fingerprint", body: Array(#"{"pdq": "\#(view.pdq.hex)"}"#.utf8))
        #expect(pdqOnly.status == 200)
        let page = try WireJSON.decode(QueryResultRecord.self, from: pdqOnly.body)
        #expect(page.results.first?.id == "landmarks/hurricane-ridge")
        #expect((page.results.first?.score ?? 0) > 0.95)

        func hex(_ v: UInt64) -> String { let s = String(v, radix: 16); return String(repeating: "0", count: 16 - s.count) + s }
        let bins = view.histogram.bins.map { String(format: "%02x", $0) }.joined()
        let body = #"{"pdq": "\#(view.pdq.hex)", "phash": "\#(hex(view.pHash))", "dhash": "\#(hex(view.dHash))", "histogram": "\#(bins)"}"#
        let full = try await server.request(.post, "/v1/search/fingerprint?page_size=1", body: Array(body.utf8))
        #expect(full.status == 200)
        let fullPage = try WireJSON.decode(QueryResultRecord.self, from: full.body)
        #expect(fullPage.results.first?.id == "landmarks/hurricane-ridge")
        if let token = fullPage.nextPageToken {
            #expect(try await server.request(.get, "/v1/search?page_token=\(token)").status == 200)
        }
    }

    @Test func badFingerprintBodiesAre400() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let pdq = String(repeating: "ab", count: 32)
        for body in ["", "{}", "[1]", #"{"pdq": "xyz"}"#, #"{"pdq": "\#(pdq)", "phash": "00"}"#,
                     #"{"pdq": "\#(pdq)", "quality": 500}"#, #"{"pdq": 7}"#] {
            let answer = try await server.request(.post, "/v1/search/fingerprint", body: Array(body.utf8))
            #expect(answer.status == 400, "\(body)")
            #expect(answer.errorCode == "invalid_body")
        }
    }
}

/// Uploads are recognised by their bytes, whatever the format (PNG, JPEG, HEIC, WebP…).
@Suite struct UploadFormatTests {
    @Test func aHEICUploadFindsItsLandmark() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.search(file: Harness.testdata("heif/catalog-hurricane-ridge.heic"))
        #expect(answer.status == 200)
        let page = try WireJSON.decode(QueryResultRecord.self, from: answer.body)
        #expect(page.results.first?.id == "landmarks/hurricane-ridge")
    }

    @Test func webPAndPNGUploadsAreDecoded() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        for file in ["webp/lossy.webp", "samples/screenshot-hurricane-ridge.png"] {
            let answer = try await server.search(file: Harness.testdata(file))
            #expect(answer.status == 200, "\(file): \(answer.text)")
        }
    }
}

/// Low-information uploads (`testdata/low-information`): an exact copy of a catalog image
/// is found whatever its detail, anything else says why nothing matched, and `/readyz`
/// counts what a search cannot find.
@Suite struct ExactCopyEndpointTests {
    static func lowInformationCatalog() async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-server-copies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("catalog.sqlite").path
        let store = try SQLiteEntityStore(path: path)
        _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(FolderCatalogSource(folderPath: Harness.testdata("low-information")))
        return path
    }

    @Test func anUploadedCopyOfAFlatImageIsFoundWithScoreOneAndReadyzCountsTheUnsearchable() async throws {
        let server = try await Harness.start(catalog: try await Self.lowInformationCatalog())
        defer { Task { await server.stop() } }
        for name in ["gravel", "flat-green", "bands"] {
            let answer = try await server.search(file: Harness.testdata("low-information/\(name).png"))
            #expect(answer.status == 200)
            let page = try WireJSON.decode(QueryResultRecord.self, from: answer.body)
            #expect(page.results.first?.id == name && page.results.first?.score == 1, "\(name)")
            #expect(page.reason == nil)
        }
        // A region is never a copy: an empty page that says the selection has too little detail.
        let region = try await server.search(file: Harness.testdata("low-information/flat-green.png"), query: "region=0,0,100,100")
        let page = try WireJSON.decode(QueryResultRecord.self, from: region.body)
        #expect(region.status == 200 && page.results.isEmpty && page.reason == QueryResultRecord.notInformative)
        // Counted in the background once per generation: /readyz shows the counts once known.
        var object: [String: Any] = [:]
        for _ in 0..<100 {
            object = try await server.request(.get, "/readyz").json()
            if object["unsearchable_images"] != nil { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(object["unsearchable_images"] as? Int == 5 && object["unsearchable_landmarks"] as? Int == 5, "\(object)")
    }

    @Test func theNextPageOfAnExactCopySearchContinuesWithTheCopies() async throws {
        // Two landmarks hold the same flat file: one page each, the second through the token.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-server-twins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
        for name in ["flat-a", "flat-b"] {
            try FileManager.default.copyItem(atPath: Harness.testdata("low-information/flat-blue.png"), toPath: folder.appendingPathComponent("images/\(name).png").path)
        }
        let path = folder.appendingPathComponent("catalog.sqlite").path
        _ = try await CatalogIndexer(store: try SQLiteEntityStore(path: path), fingerprinter: ImageFingerprinter.catalog)
            .index(FolderCatalogSource(folderPath: folder.appendingPathComponent("images").path))
        let server = try await Harness.start(catalog: path)
        defer { Task { await server.stop() } }
        let first = try WireJSON.decode(QueryResultRecord.self, from: try await server.search(file: Harness.testdata("low-information/flat-blue.png"), query: "page_size=1").body)
        #expect(first.results.map(\.id) == ["flat-a"] && first.results.first?.score == 1)
        let token = try #require(first.nextPageToken)
        let next = try await server.request(.get, "/v1/search?page_token=\(token)")
        #expect(next.status == 200)
        let second = try WireJSON.decode(QueryResultRecord.self, from: next.body)
        #expect(second.results.map(\.id) == ["flat-b"] && second.results.first?.score == 1 && second.nextPageToken == nil)
    }
}
