import Foundation
import Testing
@testable import Search

/// End to end on the sample catalog of real photos (`testdata/catalog`): index with the
/// real decoder and fingerprinter, then query with regions of the catalog's own images.
@Suite(.serialized) struct RealPhotoSearchTests {
    static let catalogFolder = SearchFixtures.root.deletingLastPathComponent().appendingPathComponent("catalog")

    /// Debug builds on a busy machine fingerprint slowly; these tests check answers, not time.
    static let unhurried = PageRequest(size: 10, deadline: .seconds(120))

    func indexedSample() async throws -> (SQLiteEntityStore, IndexReport) {
        let store = try SQLiteEntityStore()
        let report = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(ManifestCatalogSource(manifestPath: Self.catalogFolder.appendingPathComponent("manifest.json").path))
        return (store, report)
    }

    @Test func everySampleImageIndexesAndFindsItselfFirst() async throws {
        let (store, report) = try await indexedSample()
        #expect(report.failed.isEmpty, "\(report.failed)")
        #expect(report.added.count >= 10)
        let query = VisualSearchQuery(store: store)
        for landmark in try store.allLandmarks() {
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
        let landmark = try #require(try store.landmark(id: "landmarks/hurricane-ridge"))
        let path = try #require(landmark.referenceImages.first?.path)
        let crop = try SemanticContentDescriptor(
            contentsOfFile: path, region: .fractions(x: 0.05, y: 0.1, width: 0.8, height: 0.8), labels: ["snow"])
        let page = try await query.values(for: crop, page: Self.unhurried)
        #expect(!page.isPartial)
        let first = try #require(page.items.first { $0.value.landmark != nil })
        #expect(first.value.landmark?.id == landmark.id)
        #expect(first.matchedLabels == ["snow"])
    }
}
