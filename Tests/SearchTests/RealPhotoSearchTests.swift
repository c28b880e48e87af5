import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import Testing
import SQLiteStore
@testable import Search

/// End to end on the sample catalog of real photos (`testdata/catalog`): index with the
/// real decoder and fingerprinter, then query with regions of the catalog's own images.
@Suite(.serialized) struct RealPhotoSearchTests {
    static let catalogFolder = SearchFixtures.root.deletingLastPathComponent().appendingPathComponent("catalog")

    /// Debug builds on a busy machine fingerprint slowly; these tests check answers, not time.
    static let unhurried = PageRequest(size: 10, deadline: .seconds(120))

    func indexedSample(_ fingerprinter: ImageFingerprinter = .catalog) async throws -> (SQLiteEntityStore, IndexReport) {
        let store = try SQLiteEntityStore()
        let report = try await CatalogIndexer(store: store, fingerprinter: fingerprinter)
            .index(ManifestCatalogSource(manifestPath: Self.catalogFolder.appendingPathComponent("manifest.json").path))
        return (store, report)
    }

    @Test func everySampleImageIndexesAndFindsItselfFirst() async throws {
        let (store, report) = try await indexedSample()
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(report.added.count >= 10)
        let query = VisualSearchQuery(store: store)
        for landmark in try await store.allLandmarks() {
            let path = try #require(landmark.referenceImages.first?.path)
            let descriptor = try SemanticContentDescriptor(contentsOfFile: path)
            let page = try await query.values(for: descriptor, page: Self.unhurried)
            #expect(!page.isPartial)
            #expect(page.values.first?.landmark?.id == landmark.id, "query \(path): \(page.items.map { "\($0.value.url) \($0.score)" })")
        }
    }

    @Test func anOffCentreCropWithALabelFindsItsLandmark() async throws {
        let (store, _) = try await indexedSample()
        let query = VisualSearchQuery(store: store)
        let landmark = try #require(try await store.landmark(id: "landmarks/hurricane-ridge"))
        let path = try #require(landmark.referenceImages.first?.path)
        let crop = try SemanticContentDescriptor(
            contentsOfFile: path, region: .fractions(x: 0.05, y: 0.1, width: 0.8, height: 0.8), labels: ["snow"])
        let page = try await query.values(for: crop, page: Self.unhurried)
        #expect(!page.isPartial)
        let first = try #require(page.items.first { $0.value.landmark != nil })
        #expect(first.value.landmark?.id == landmark.id)
        #expect(first.matchedLabels == ["snow"])
    }

    /// A catalog whose fingerprints are of an older layout version is still searched
    /// correctly, and the query says how many are outdated (the CLI prints what to run).
    @Test func aCatalogOfOlderFingerprintsStillAnswersAndIsReportedOutdated() async throws {
        var oldLayout = FingerprintViewLayout.catalog
        oldLayout.version = 1
        let (store, report) = try await indexedSample(ImageFingerprinter(layout: oldLayout))
        let query = VisualSearchQuery(store: store)
        let counts = try await query.outdatedFingerprintCount(currentVersion: 2)
        #expect(counts.outdated == report.added.count && counts.total == report.added.count)
        #expect(try await query.outdatedFingerprintCount(currentVersion: 1).outdated == 0)
        let landmark = try #require(try await store.landmark(id: "landmarks/hurricane-ridge"))
        let path = try #require(landmark.referenceImages.first?.path)
        let page = try await query.values(for: try ImageFingerprinter.query.fingerprint(file: path), page: Self.unhurried)
        #expect(page.values.first?.landmark?.id == landmark.id)
    }

    /// A catalog photo turned by 90°, 180° or mirrored top to bottom finds its landmark first.
    @Test func rotatedAndFlippedPhotosFindTheirLandmark() async throws {
        let (store, _) = try await indexedSample()
        let query = VisualSearchQuery(store: store)
        let landmark = try #require(try await store.landmark(id: "landmarks/hurricane-ridge"))
        let path = try #require(landmark.referenceImages.first?.path)
        let pixels = try ImageDecoder().decode(file: path).pixels
        for transform in [Dihedral.rotate90, .rotate180, .flipX, .flipMinus1] {
            let page = try await query.values(for: SemanticContentDescriptor(pixelBuffer: Self.oriented(pixels, transform)), page: Self.unhurried)
            #expect(page.values.first?.landmark?.id == landmark.id, "\(transform)")
            let upright = VisualSearchQuery(store: store, fingerprinter: .query(orientations: .upright))
            let missed = try await upright.values(for: SemanticContentDescriptor(pixelBuffer: Self.oriented(pixels, transform)), page: Self.unhurried)
            #expect(missed.values.first?.landmark?.id != landmark.id, "upright-only must not find \(transform)")
        }
    }

    static func oriented(_ buffer: PixelBuffer, _ transform: Dihedral) -> PixelBuffer {
        let bpp = buffer.format.bytesPerPixel, w = buffer.width, h = buffer.height
        let src = buffer.packedBytes()
        let (ow, oh) = transform.swapsAxes ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: src.count)
        for r in 0..<oh {
            for c in 0..<ow {
                let s = transform.sourceCell(row: r, column: c, rows: h, columns: w)
                for k in 0..<bpp { out[(r * ow + c) * bpp + k] = src[(s.row * w + s.column) * bpp + k] }
            }
        }
        return try! PixelBuffer(format: buffer.format, width: ow, height: oh, bytes: out)
    }
}
