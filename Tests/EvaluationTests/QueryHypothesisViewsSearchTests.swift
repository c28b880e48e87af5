import Fingerprints
import Testing
@testable import Evaluation

/// The query's hypothesis views at work, searched through the real index and query API with
/// and without them: prints of the sample catalog photographed 20° off (the tilt views,
/// ``FingerprintViewLayout/queryTilts``) and the catalog through a sepia filter with a
/// vignette (the vignette view, ``FingerprintViewLayout/queryVignettes``).
@Suite struct QueryHypothesisViewsSearchTests {
    @Test func tiltedPrintsAndVignettedCopiesAreFoundThroughTheHypothesisViews() async throws {
        let runner = EvaluationRunner(transformations: [.keystone20, .sepiaVignette], concurrency: 2)
        let catalog = TestImages.path("catalog")
        let with = try await runner.run(catalogFolder: catalog, negativesFolder: nil)
        let without = try await runner.run(catalogFolder: catalog, negativesFolder: nil,
                                           query: ImageFingerprinter(layout: FingerprintViewLayout.query.withoutHypothesisViews))
        let (tiltedWith, tiltedWithout) = (with.rows[0].recallAt1, without.rows[0].recallAt1)
        #expect(tiltedWith >= 0.95 && tiltedWithout < 0.5, "20° prints: recall@1 \(tiltedWith) with tilt views, \(tiltedWithout) without")
        let (sepiaWith, sepiaWithout) = (with.rows[1].recallAt1, without.rows[1].recallAt1)
        #expect(sepiaWith == 1 && sepiaWithout < 1, "sepia with a vignette: recall@1 \(sepiaWith) with the vignette view, \(sepiaWithout) without")
    }
}
