import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import Testing
@testable import Evaluation

/// `EvaluationRunner.run` indexes a real folder into SQLite and queries through the real
/// query API. A crude stand-in fingerprint (8×8 average hash and a colour histogram) keeps
/// this test about the wiring, not about the production fingerprint's accuracy.
@Suite struct SearchWiringTests {
    static func crudeFingerprint(_ buffer: PixelBuffer) -> Fingerprint {
        let image = RGBAImage(buffer)
        let small = Resampling.areaAverage(image, width: min(8, image.width), height: min(8, image.height))
        let sized = small.width == 8 && small.height == 8 ? small : Resampling.bilinear(small, width: 8, height: 8)
        let gray = (0..<64).map { i in (Int(sized.pixels[4 * i]) + Int(sized.pixels[4 * i + 1]) + Int(sized.pixels[4 * i + 2])) / 3 }
        let mean = gray.reduce(0, +) / 64
        var hash: UInt64 = 0
        for (i, v) in gray.enumerated() where v > mean { hash |= 1 << UInt64(i) }
        var counts = [UInt32](repeating: 0, count: 64)
        var i = 0
        while i < image.pixels.count {
            counts[Int(image.pixels[i] >> 6) * 16 + Int(image.pixels[i + 1] >> 6) * 4 + Int(image.pixels[i + 2] >> 6)] += 1
            i += 4
        }
        let view = FingerprintView(region: .full, aHash: hash, dHash: hash, pHash: hash, pdq: PDQHash(words: SIMD4(repeating: hash)),
                                   quality: 100, histogram: ColorHistogram(counts: counts))
        return Fingerprint(views: [view])
    }

    /// Indexes with the crude fingerprint.
    struct CrudeIndexing: ImageFingerprinting {
        func fingerprint(imageData data: Data, path: String) throws -> Fingerprint {
            SearchWiringTests.crudeFingerprint(try ImageDecoder().decode(data, source: path, options: DecodeOptions(alwaysRGBA: true)).pixels)
        }
    }

    @Test func runIndexesTheFolderAndQueriesThroughTheQueryAPI() async throws {
        let runner = EvaluationRunner(transformations: [.grayscale, .brightnessContrast], concurrency: 2)
        let report = try await runner.run(
            catalogFolder: TestImages.path("catalog"), negativesFolder: TestImages.path("negatives"),
            indexing: CrudeIndexing(), queryFingerprint: Self.crudeFingerprint)
        let catalogCount = try ImageFolder.images(in: TestImages.path("catalog")).count
        #expect(report.catalogImages == catalogCount)
        #expect(report.rows.map(\.transformation) == ["grayscale", "brightness-contrast"])
        #expect(report.rows.allSatisfy { $0.queries == catalogCount })
        // Even the crude hash finds most grayscale copies: ids from the index match folder ids.
        #expect(report.rows[0].recallAt1 > 0.6, "grayscale recall@1 \(report.rows[0].recallAt1)")
        let point = try #require(report.operatingPoint)
        #expect(point.negatives == report.negativeImages * 3)
        #expect(report.rows.allSatisfy { $0.medianTopScore > 0 && $0.medianTopScore <= 1 })
    }

    /// `--query-jpeg-quality`: each query is encoded as a JPEG and fingerprinted by decoding
    /// those bytes (DCT-scaled to the query decode size) — the real fingerprints, on a
    /// three-image catalog (as queries, the 640×480 JPEG is decoded at 1/4, the two others whole).
    @Test func queriesEncodedAsJPEGAreFingerprintedByDecodingThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-jpeg-queries-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in ["history-and-science/model-castle.jpg", "objects/cement-mixer.jpg", "landmarks/grossmugl.jpg"] {
            let target = folder.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestImages.path("catalog/" + file), toPath: target.path)
        }
        let runner = EvaluationRunner(transformations: [.flipHorizontal], concurrency: 2)
        let fromPixels = try await runner.run(catalogFolder: folder.path, negativesFolder: nil)
        let fromJPEG = try await runner.run(catalogFolder: folder.path, negativesFolder: nil, queryJPEGQuality: 90)
        let atCatalogSize = try await runner.run(catalogFolder: folder.path, negativesFolder: nil,
                                                 query: ImageFingerprinter(layout: .query, minimumShortSide: 192, minimumLongSide: 320),
                                                 queryJPEGQuality: 90)
        for report in [fromPixels, fromJPEG, atCatalogSize] {
            #expect(report.rows.count == 1 && report.rows[0].queries == 3)
            #expect(report.rows[0].recallAt1 == 1, "every mirrored photo is found")
        }
        // The JPEG round trip and the decode size both change what the query sees.
        #expect(fromJPEG.rows[0].medianTopScore != fromPixels.rows[0].medianTopScore)
        #expect(fromJPEG.outcomes.map(\.topScore) != atCatalogSize.outcomes.map(\.topScore))
    }

    @Test func aFolderThatIsNotACatalogFailsToIndexWithItsPath() async throws {
        let runner = EvaluationRunner(transformations: [.grayscale])
        await #expect(throws: EvaluationError.self) {
            try await runner.run(catalogFolder: "/nonexistent/catalog", negativesFolder: nil,
                                 indexing: CrudeIndexing(), queryFingerprint: Self.crudeFingerprint)
        }
    }
}
