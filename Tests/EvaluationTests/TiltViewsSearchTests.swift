import Fingerprints
import Testing
@testable import Evaluation

/// The query's tilt views (``FingerprintViewLayout/queryTilts``) at work: prints of the sample
/// catalog photographed 20° off, searched through the real index and query API with and
/// without them.
@Suite struct TiltViewsSearchTests {
    @Test func printsPhotographedTwentyDegreesOffAreFoundThroughTheTiltViewsOnly() async throws {
        let runner = EvaluationRunner(transformations: [.keystone20], concurrency: 2)
        let catalog = TestImages.path("catalog")
        let withTilts = try await runner.run(catalogFolder: catalog, negativesFolder: nil)
        let withoutTilts = try await runner.run(catalogFolder: catalog, negativesFolder: nil,
                                                query: ImageFingerprinter(layout: FingerprintViewLayout.query.withoutTilts))
        #expect(withTilts.rows[0].recallAt1 >= 0.95, "recall@1 with tilt views \(withTilts.rows[0].recallAt1)")
        #expect(withoutTilts.rows[0].recallAt1 < 0.5, "recall@1 without \(withoutTilts.rows[0].recallAt1)")
    }
}
