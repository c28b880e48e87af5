import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import SQLiteStore
import Search
import Testing
@testable import Evaluation

/// The scale benchmark's distractors: seeded, inside their photo, distinct, and written in
/// batches to the same catalog a single precomputed write gives.
@Suite struct CropCatalogTests {
    static let photos = ["catalog/landmarks/sterngarten-vienna.jpg", "negatives/anemone.jpg", "negatives/castle-simulation.jpg"].map(TestImages.path)

    @Test func cropsAreSeededInsideTheirPhotoAndShareOutTheCount() {
        let crops = CropCatalog(photos: Self.photos, count: 100, seed: 9)
        #expect((0..<3).map(crops.cropCount(ofPhoto:)) == [34, 33, 33])
        let a = crops.windows(ofPhoto: 1, width: 640, height: 427), b = crops.windows(ofPhoto: 1, width: 640, height: 427)
        #expect(a == b && a.count == 33 && Set(a).count == 33)
        #expect(a != CropCatalog(photos: Self.photos, count: 100, seed: 10).windows(ofPhoto: 1, width: 640, height: 427))
        for window in a {
            #expect(window.width >= CropCatalog.minimumSide && window.height >= CropCatalog.minimumSide)
            #expect(window.x >= 0 && window.y >= 0 && window.x + window.width <= 640 && window.y + window.height <= 427)
            #expect(window.width * window.height >= 640 * 427 / 10)
        }
        #expect(crops.windows(ofPhoto: 0, width: 50, height: 400).isEmpty, "a photo narrower than a crop gives none")
        #expect(CropCatalog.landmarkID(photo: 2, crop: 31) == "crops/00002/00031")
    }

    @Test func eachCropIsAFingerprintedLandmarkOfTheCatalogLayout() throws {
        let crops = CropCatalog(photos: Self.photos, count: 6, seed: 3)
        let landmarks = try crops.landmarks(ofPhoto: 0)
        #expect(landmarks.map(\.id) == ["crops/00000/00000", "crops/00000/00001"])
        for landmark in landmarks {
            let image = try #require(landmark.referenceImages.first)
            #expect(image.path.hasPrefix(Self.photos[0] + "#crop="))
            #expect(image.fingerprint?.views.count == FingerprintViewLayout.catalog.viewCount)
            #expect(image.fingerprint?.layoutVersion == FingerprintViewLayout.catalogVersion)
        }
        #expect(landmarks[0].referenceImages[0].fingerprint != landmarks[1].referenceImages[0].fingerprint)
        #expect(throws: DecodeError.self) { try CropCatalog(photos: [TestImages.path("README.md")], count: 1).landmarks(ofPhoto: 0) }
        // 43 pixels wide: no crop of 64 fits, so the photo gives none.
        #expect(try CropCatalog(photos: [TestImages.path("negatives/bassoon.jpg")], count: 3).landmarks(ofPhoto: 0).isEmpty)
    }

    @Test func batchesWriteTheCatalogOnePrecomputedWriteGives() async throws {
        let crops = CropCatalog(photos: Self.photos, count: 9, seed: 4)
        let perPhoto = try (0..<3).map { try crops.landmarks(ofPhoto: $0) }
        let whole = try SQLiteEntityStore()
        _ = try await CatalogIndexer(store: whole, fingerprinter: ImageFingerprinter.catalog)
            .index(precomputed: CatalogContent(landmarks: perPhoto.flatMap { $0 }, collections: []), sourceDescription: "test")
        let batched = try SQLiteEntityStore()
        var batches = perPhoto.makeIterator()
        let report = try await CatalogIndexer(store: batched, fingerprinter: ImageFingerprinter.catalog)
            .index(precomputedBatches: { batches.next() }, collections: [], sourceDescription: "test")
        #expect(report.added.count == 9, "\(report.added)")
        #expect(report.fingerprinted == 9)
        #expect(try batched.fingerprintSnapshot().entries == whole.fingerprintSnapshot().entries)
        #expect(try batched.allLandmarks().map(\.id) == whole.allLandmarks().map(\.id))
    }
}
