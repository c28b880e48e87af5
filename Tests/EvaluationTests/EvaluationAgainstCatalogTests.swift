import Catalog
import Fingerprints
import Foundation
import SQLiteStore
import Search
import Testing
@testable import Evaluation

/// `glimpse eval --db`: the evaluation's queries searched in an existing catalog that holds
/// the evaluated folder among distractors.
@Suite struct EvaluationAgainstCatalogTests {
    @Test func distractorsAroundTheCatalogAreSearchedAndAnIncompleteCatalogIsRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-eval-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("catalog.sqlite").path
        let catalog = TestImages.path("catalog")
        do {
            let store = try SQLiteEntityStore(path: path)
            _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog).index(FolderCatalogSource(folderPath: catalog))
            // Distractors: crops of photos that are in no catalog, kept beside the folder's landmarks.
            let photos = ["negatives/anemone.jpg", "negatives/castle-simulation.jpg"].map(TestImages.path)
            let crops = CropCatalog(photos: photos, count: 40, seed: 2)
            let kept = try await store.content(excludingIDPrefix: CropCatalog.idPrefix)
            var batches = [kept.landmarks, try crops.landmarks(ofPhoto: 0), try crops.landmarks(ofPhoto: 1)].makeIterator()
            _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
                .index(precomputedBatches: { batches.next() }, collections: kept.collections, sourceDescription: "test")
            #expect(try await VisualIndexSnapshot.rewrite(store: store, path: path + ".vindex") == .written)
            #expect(try store.allLandmarks().count == 46 + 40)
        }
        let runner = EvaluationRunner(transformations: [.grayscale, .flipHorizontal])
        let among = try await runner.run(catalogFolder: catalog, negativesFolder: nil, searchingCatalogAt: path)
        let alone = try await runner.run(catalogFolder: catalog, negativesFolder: nil)
        #expect(among.overall.queries == 92 && alone.overall.queries == 92)
        #expect(among.overall.recallAt1 == alone.overall.recallAt1 && among.overall.recallAt1 > 0.95)
        #expect(among.outcomes.map(\.image) == alone.outcomes.map(\.image))

        // A catalog without the folder's images cannot be evaluated against.
        let other = folder.appendingPathComponent("other.sqlite").path
        _ = try await CatalogIndexer(store: try SQLiteEntityStore(path: other), fingerprinter: ImageFingerprinter.catalog)
            .index(precomputed: CatalogContent(landmarks: try CropCatalog(photos: [TestImages.path("negatives/anemone.jpg")], count: 2).landmarks(ofPhoto: 0),
                                               collections: []), sourceDescription: "test")
        await #expect(throws: EvaluationError.self) { try await runner.run(catalogFolder: catalog, negativesFolder: nil, searchingCatalogAt: other) }
        do {
            _ = try await runner.run(catalogFolder: catalog, negativesFolder: nil, searchingCatalogAt: other)
        } catch {
            #expect(error.description.contains("does not hold animals/") && error.description.contains("cannot evaluate against this catalog"))
        }
    }
}
