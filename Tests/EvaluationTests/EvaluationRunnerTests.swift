import Foundation
import PixelBuffers
import Testing
@testable import Evaluation

/// The runner's bookkeeping, with a stand-in search (nearest 8×8 gray thumbnail) over the
/// real sample catalog, so these tests do not depend on the fingerprint's accuracy.
@Suite struct EvaluationRunnerTests {
    /// An 8×8 mean-gray thumbnail: a crude but deterministic image signature.
    static func thumbnail(_ buffer: PixelBuffer) -> [Int] {
        let image = RGBAImage(buffer)
        let small = Resampling.areaAverage(image, width: min(8, image.width), height: min(8, image.height))
        let sized = small.width == 8 && small.height == 8 ? small : Resampling.bilinear(small, width: 8, height: 8)
        return (0..<64).map { i in (Int(sized.pixels[4 * i]) + Int(sized.pixels[4 * i + 1]) + Int(sized.pixels[4 * i + 2])) / 3 }
    }

    /// Ranks catalog images by thumbnail L1 distance; score = 1 − distance / max.
    static func makeSearch(catalog: String) throws -> @Sendable (PixelBuffer) async throws -> SearchAnswer {
        let entries = try ImageFolder.images(in: catalog).map { relative in
            (ImageFolder.landmarkID(for: relative),
             thumbnail(try ImageDecoder().decode(file: (catalog as NSString).appendingPathComponent(relative), options: DecodeOptions(alwaysRGBA: true)).pixels))
        }
        return { buffer in
            let query = thumbnail(buffer)
            let ranked = entries.map { entry in (entry.0, zip(entry.1, query).reduce(0) { $0 + abs($1.0 - $1.1) }) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            return SearchAnswer(landmarkIDs: ranked.prefix(10).map(\.0), topScore: 1 - Double(ranked[0].1) / (64 * 255),
                                topID: ranked.first?.0)
        }
    }

    @Test func reportCoversEveryImageAndTransformationDeterministically() async throws {
        let catalog = TestImages.path("catalog"), negatives = TestImages.path("negatives")
        let search = try Self.makeSearch(catalog: catalog)
        let transformations: [ImageTransformation] = [.flipHorizontal, .borderCrop10, .grayscale]
        let serial = try await EvaluationRunner(transformations: transformations, concurrency: 1)
            .evaluate(catalogFolder: catalog, negativesFolder: negatives, search: search)
        let parallel = try await EvaluationRunner(transformations: transformations, concurrency: 3)
            .evaluate(catalogFolder: catalog, negativesFolder: negatives, search: search)
        #expect(serial == parallel, "the report does not depend on concurrency")

        let catalogCount = try ImageFolder.images(in: catalog).count
        let negativeCount = try ImageFolder.images(in: negatives).count
        #expect(catalogCount >= 30 && negativeCount >= 15)
        #expect(serial.catalogImages == catalogCount && serial.negativeImages == negativeCount)
        #expect(serial.rows.map(\.transformation) == transformations.map(\.rawValue))
        #expect(serial.rows.allSatisfy { $0.metrics.queries == catalogCount })
        #expect(serial.overall.queries == catalogCount * transformations.count)
        let point = try #require(serial.operatingPoint)
        #expect(point.negatives == negativeCount * (transformations.count + 1))
        #expect(point.positives == catalogCount * transformations.count)
        // Grayscale keeps the gray thumbnail almost intact: the stand-in finds nearly all.
        #expect(serial.rows[2].metrics.recallAt1 > 0.9)
        #expect(serial.misses.allSatisfy { !$0.isCorrectAtTop })
    }

    @Test func missingFoldersAndEmptyFoldersAreNamedInErrors() async throws {
        let runner = EvaluationRunner(transformations: [.grayscale])
        let search: @Sendable (PixelBuffer) async throws -> SearchAnswer = { _ in SearchAnswer(landmarkIDs: [], topScore: nil) }
        await #expect(throws: EvaluationError.unreadableFolder("/nonexistent/catalog", reason: "not a directory")) {
            try await runner.evaluate(catalogFolder: "/nonexistent/catalog", negativesFolder: nil, search: search)
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-eval-empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        await #expect(throws: EvaluationError.noImages(empty)) {
            try await runner.evaluate(catalogFolder: empty, negativesFolder: nil, search: search)
        }
    }

    @Test func aFailingSearchIsReportedWithTheImageAndTransformation() async throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
        let runner = EvaluationRunner(transformations: [.grayscale], concurrency: 2)
        do {
            _ = try await runner.evaluate(catalogFolder: TestImages.path("catalog"), negativesFolder: nil) { _ in throw Boom() }
            Issue.record("expected a failure")
        } catch {
            guard case .queryFailed(let path, let transformation, let reason) = error else {
                Issue.record("unexpected \(error)"); return
            }
            #expect(path.hasSuffix("catalog/animals/black-rhino.jpg"), "first image in order: \(path)")
            #expect(transformation == "grayscale" && reason == "boom")
        }
    }
}

/// Exported queries are the very pixels the evaluation queries with.
@Suite struct QueryExportTests {
    @Test func exportWritesOneLosslessPNGPerImageAndTransformation() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-export-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let catalog = TestImages.path("catalog")
        let runner = EvaluationRunner(transformations: [.offCentreCrop25, .textOverlay])
        let count = try runner.exportQueries(catalogFolder: catalog, to: out)
        #expect(count == 2 * (try ImageFolder.images(in: catalog).count))
        let exported = try ImageDecoder().decode(file: out + "/text-overlay/animals/otter.png", options: DecodeOptions(alwaysRGBA: true)).pixels
        let source = try TestImages.load("catalog/animals/otter.jpg")
        let expected = try ImageTransformation.textOverlay.apply(to: source, seed: EvaluationRunner.seed(for: "animals/otter.jpg"))
        #expect(exported == expected)
    }
}
