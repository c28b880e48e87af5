import Catalog
import Fingerprints
import InstructionSetTesting
import Testing
@testable import Search

@Suite struct VisualIndexTests {
    let version = CatalogVersion(catalogID: "test", generation: 1, tokenKey: SIMD2(1, 2))

    func index(_ seeds: [(String, UInt64)]) -> VisualIndex {
        VisualIndex(version: version, entries: seeds.map { .init(landmarkID: $0.0, fingerprints: [SearchFixtures.fingerprint(seed: $0.1)]) })
    }

    @Test func identicalFingerprintScoresOneAndUnrelatedOnesDoNotMatch() throws {
        let index = index([("a", 1), ("b", 2), ("c", 3)])
        let outcome = try index.search(SearchFixtures.fingerprint(seed: 2), minimumScore: SimilarityScoring.defaultNoMatchThreshold)
        #expect(outcome.matches.map(\.landmarkID) == ["b"])
        #expect(outcome.matches[0].score == 1 && !outcome.isPartial)
        // With no threshold and no PDQ gate every landmark is ranked, unrelated ones near 0.
        let all = try index.search(SearchFixtures.fingerprint(seed: 2), scoring: SimilarityScoring(candidatePDQRadius: 256), minimumScore: 0).matches
        #expect(all.map(\.landmarkID).sorted() == ["a", "b", "c"] && all.first?.landmarkID == "b")
        #expect(all.dropFirst().allSatisfy { $0.score < 0.2 })
    }

    @Test func perturbedQueryStillMatchesWithALowerCalibratedScore() throws {
        let index = index([("a", 1), ("b", 2)])
        let match = try index.search(SearchFixtures.perturbed(SearchFixtures.fingerprint(seed: 1), bits: 6), minimumScore: 0.35).matches
        #expect(match.map(\.landmarkID) == ["a"])
        #expect(match[0].score > 0.5 && match[0].score < 1)
    }

    @Test func equalScoresAreOrderedById() throws {
        // Three landmarks with the same fingerprint, inserted out of order.
        let index = index([("m", 7), ("c", 7), ("x", 7), ("a", 8)])
        let matches = try index.search(SearchFixtures.fingerprint(seed: 7), minimumScore: 0.35).matches
        #expect(matches.map(\.landmarkID) == ["c", "m", "x"])
    }

    @Test func blankViewsAreNotIndexedAndBlankQueriesMatchNothing() throws {
        let blankCatalog = VisualIndex(version: version, entries: [
            .init(landmarkID: "blank", fingerprints: [SearchFixtures.blank]),
            .init(landmarkID: "a", fingerprints: [SearchFixtures.fingerprint(seed: 1)]),
        ])
        #expect(blankCatalog.landmarkIDs == ["a"])
        let outcome = try blankCatalog.search(SearchFixtures.blank, minimumScore: 0)
        #expect(outcome.matches.isEmpty && !outcome.queryIsInformative)
        // A blank query never matches a blank catalog image, even at threshold 0.
        #expect(try blankCatalog.search(SearchFixtures.fingerprint(seed: 1), minimumScore: 0).matches.map(\.landmarkID) == ["a"])
    }

    @Test func queryInnerCropsAreComparedWithCatalogFullFrames() throws {
        let catalogImage = SearchFixtures.fingerprint(seed: 5, views: 1)
        let index = VisualIndex(version: version, entries: [.init(landmarkID: "a", fingerprints: [catalogImage])])
        // A screenshot: its full frame is unrelated, its centre crop is the catalog image.
        var query = SearchFixtures.fingerprint(seed: 6)
        query.views[1].pdq = catalogImage.views[0].pdq
        query.views[1].pHash = catalogImage.views[0].pHash
        query.views[1].dHash = catalogImage.views[0].dHash
        query.views[1].histogram = catalogImage.views[0].histogram
        let match = try index.search(query, minimumScore: 0.35).matches
        #expect(match.map(\.landmarkID) == ["a"] && match[0].queryViewIndex == 1)
    }

    @Test func anExpiredDeadlineGivesAPartialOutcome() throws {
        let index = index((0..<2000).map { ("l\($0)", UInt64($0)) })
        let outcome = try index.search(SearchFixtures.fingerprint(seed: 5), minimumScore: 0.35, deadline: .now - .seconds(1))
        #expect(outcome.isPartial && outcome.comparedPairs == 0)
        let full = try index.search(SearchFixtures.fingerprint(seed: 5), minimumScore: 0.35, deadline: .now + .seconds(60))
        #expect(!full.isPartial && full.matches.map(\.landmarkID) == ["l5"])
    }

    @Test(.comparingEveryInstructionSet) func everyInstructionSetGivesTheSameMatches() throws {
        let index = index((0..<300).map { ("l\($0)", UInt64($0)) })
        let query = SearchFixtures.perturbed(SearchFixtures.fingerprint(seed: 42), bits: 4)
        let reference = try index.search(query, minimumScore: 0, using: .portable)
        for isa in InstructionSet.allCases where isa.isSupported {
            #expect(try index.search(query, minimumScore: 0, using: isa) == reference)
        }
    }
}
