import Catalog
import Fingerprints
import Foundation
import PixelBuffers
@testable import SQLiteStore
import Testing
@testable import Search

/// Low-information images (`testdata/low-information`: fine grain, flat wallpapers, a
/// one-pixel checkerboard) cannot be found by a search; an exact copy of one, by its bytes
/// or by its pixels, always is, and anything else says why nothing matched.
@Suite struct ExactCopyTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/low-information")
    static let unsearchable = ["fine-checker", "flat-blue", "flat-green", "gravel", "sand"]

    /// The folder indexed into a fresh SQLite catalog with the catalog fingerprinter.
    static func indexed() async throws -> (store: SQLiteEntityStore, report: IndexReport, query: VisualSearchQuery) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-copies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let store = try SQLiteEntityStore(path: scratch.appendingPathComponent("catalog.sqlite").path)
        let report = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog).index(FolderCatalogSource(folderPath: folder.path))
        return (store, report, VisualSearchQuery(store: store))
    }

    /// The first page for a whole query image given as `bytes`, as the CLI and the server ask it.
    static func page(_ query: VisualSearchQuery, bytes: [UInt8]) async throws -> ResultPage<VisualSearchResult> {
        let fingerprint = try ImageFingerprinter.query.fingerprint(decoding: bytes)
        return try await query.values(for: fingerprint, copyKey: CopyKey(bytes: bytes, queryFingerprint: fingerprint))
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name + ".png")))
    }

    @Test func indexingReportsEveryImageASearchCannotFindAndTheCatalogCountsThem() async throws {
        let (store, report, _) = try await Self.indexed()
        #expect(report.added.count == 6 && report.failed.isEmpty)
        #expect(report.unsearchable == Self.unsearchable.map { Self.folder.appendingPathComponent($0 + ".png").path })
        #expect(try await store.unsearchableCounts(minimumViewQuality: FingerprintView.minimumSearchableQuality) == UnsearchableCounts(images: 5, landmarks: 5))
        // A second run reads the qualities from the store: the same list, nothing decoded.
        let again = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog).index(FolderCatalogSource(folderPath: Self.folder.path))
        #expect(again.unchanged.count == 6 && again.fingerprinted == 0 && again.unsearchable == report.unsearchable)
    }

    @Test func everyFileOfTheFolderQueriedAsItIsFindsItselfFirstWithScoreOne() async throws {
        let (_, _, query) = try await Self.indexed()
        for name in Self.unsearchable + ["bands"] {
            let page = try await Self.page(query, bytes: Self.bytes(name))
            #expect(page.items.first?.value.reference.id == name, "\(name) did not find itself")
            #expect(page.items.first?.score == 1)
            #expect(page.queryIsSearchable == (name == "bands"))
        }
    }

    @Test func aLosslessReSaveWithOtherBytesIsFoundByItsPixels() async throws {
        let (_, _, query) = try await Self.indexed()
        for name in ["gravel", "flat-blue"] {
            let decoded = try ImageDecoder().decode(Self.bytes(name), options: DecodeOptions(alwaysRGBA: true))
            let resaved = try PNGEncoder().encode(decoded.pixels)
            #expect(resaved != (try Self.bytes(name)), "the re-save must differ in bytes")
            let fingerprint = try ImageFingerprinter.query.fingerprint(decoding: resaved)
            #expect(CopyKey(bytes: resaved, queryFingerprint: fingerprint).frameDigest != nil)
            let page = try await Self.page(query, bytes: resaved)
            #expect(page.items.first?.value.reference.id == name && page.items.first?.score == 1)
        }
    }

    @Test func aLossyReEncodingOfALowInformationImageIsRefusedAndSaysWhy() async throws {
        let (_, _, query) = try await Self.indexed()
        for name in ["sand", "flat-blue", "fine-checker"] {
            let decoded = try ImageDecoder().decode(Self.bytes(name), options: DecodeOptions(alwaysRGBA: true))
            let jpeg = try JPEGEncoder(quality: 90).encode(decoded.pixels)
            let page = try await Self.page(query, bytes: jpeg)
            #expect(page.items.isEmpty && !page.queryIsSearchable, "\(name)")
            let record = QueryResultRecord(query: name + ".jpg", page: page, elapsed: .milliseconds(1))
            #expect(record.reason == QueryResultRecord.notInformative)
            #expect(record.jsonLine.contains(#""reason":"not_informative""#))
        }
    }

    @Test func aRemovedLandmarkIsNoLongerAnExactCopy() async throws {
        let (store, _, query) = try await Self.indexed()
        try await store.remove(EntityReference(kind: .landmark, id: "gravel"))
        let page = try await Self.page(query, bytes: Self.bytes("gravel"))
        #expect(page.items.isEmpty)
        #expect(try await store.unsearchableCounts(minimumViewQuality: FingerprintView.minimumSearchableQuality) == UnsearchableCounts(images: 4, landmarks: 4))
    }

    @Test func withoutACopyKeyAFlatImageMatchesNothing() async throws {
        // A region of an image (or a fingerprint sent by a client) has no key: the old rule.
        let (_, _, query) = try await Self.indexed()
        let fingerprint = try ImageFingerprinter.query.fingerprint(decoding: Self.bytes("flat-blue"))
        let page = try await query.values(for: fingerprint)
        #expect(page.items.isEmpty && !page.queryIsSearchable)
    }

    @Test func theContinuationTokenCarriesTheCopyKey() throws {
        let key = CopyKey(contentHash: ContentHash(of: Data("gravel".utf8)), frameDigest: FrameDigest(value: -42))
        #expect(CopyKey(bytes: key.bytes) == key)
        let version = CatalogVersion(catalogID: "c", generation: 3, tokenKey: SIMD2(1, 2))
        let inner = PageToken(offset: 10, pageSize: 10, queryDigest: 7, version: version)
        let continuation = SearchContinuation(fingerprint: SearchFixtures.blank, labels: ["a"], profile: 0, pageSize: 10, pageToken: inner, copyKey: key)
        let decoded = try SearchContinuation(text: continuation.text(signedWith: version.tokenKey), version: version)
        #expect(decoded == continuation)
        let keyless = SearchContinuation(fingerprint: SearchFixtures.blank, labels: [], profile: 0, pageSize: 10, pageToken: inner)
        #expect(try SearchContinuation(text: keyless.text(signedWith: version.tokenKey), version: version).copyKey == nil)
    }
}
