import Catalog
import Fingerprints
import Foundation
import Testing
@testable import Search

/// A minimum score chosen by the person searching (`--min-score`, `min_score`): the page
/// holds exactly the landmarks scoring at least it, whatever the calibrated threshold, and
/// its tokens continue only the same request.
@Suite struct MinimumScoreTests {
    /// A query whose best landmark (eiffel) scores under the default threshold but above 0.
    static func weakQuery(_ catalog: SearchCatalog) async throws -> (Fingerprint, Double) {
        for bits in stride(from: 10, through: 120, by: 5) {
            let query = SearchFixtures.perturbed(catalog.fingerprint(of: "eiffel.jpg"), bits: bits)
            let matches = try await catalog.query.landmarkMatches(for: query, minimumScore: 0)
            if let eiffel = matches.first(where: { $0.landmarkID == "eiffel" }), eiffel.score > 0.05,
               eiffel.score < SimilarityScoring.defaultNoMatchThreshold {
                return (query, eiffel.score)
            }
        }
        Issue.record("no perturbation of eiffel scores in (0.05, 0.40)")
        throw CancellationError()
    }

    @Test func aPageHoldsExactlyTheLandmarksScoringAtLeastTheMinimum() async throws {
        let catalog = try await SearchCatalog()
        let (query, weak) = try await Self.weakQuery(catalog)
        let every = try await catalog.query.landmarkMatches(for: query, minimumScore: 0)
        #expect(try await catalog.query.values(for: query).items.isEmpty, "the default threshold hides a \(weak) match")
        let minimums: [Double] = [0, weak / 2, weak, weak + 0.01, 0.4, 0.9, 1]
        for minimum in minimums {
            let page = try await catalog.query.values(for: query, page: PageRequest(size: 100, minimumScore: minimum))
            let landmarks = page.items.filter { $0.value.reference.kind == EntityKind.landmark }
            let shown: Set<String> = Set(landmarks.map { $0.value.reference.id })
            let expected: Set<String> = Set(every.filter { $0.score >= minimum }.map { $0.landmarkID })
            #expect(shown == expected, "minimum \(minimum)")
            #expect(landmarks.allSatisfy { $0.score >= minimum })
        }
        let found = try await catalog.query.values(for: query, page: PageRequest(size: 100, minimumScore: weak))
        #expect(found.values.first?.reference.url == "glimpse://landmark/eiffel")
    }

    @Test func labelsStillNeverMakeAMatchBelowTheMinimum() async throws {
        let catalog = try await SearchCatalog()
        let (query, weak) = try await Self.weakQuery(catalog)
        let page = try await catalog.query.values(for: query, labels: ["tower"], page: PageRequest(size: 100, minimumScore: weak + 0.01))
        #expect(!page.values.contains { $0.reference.id == "eiffel" })
        let boosted = try await catalog.query.values(for: query, labels: ["tower"], page: PageRequest(size: 100, minimumScore: weak))
        #expect(boosted.items.first { $0.value.reference.id == "eiffel" }?.matchedLabels == ["tower"])
    }

    @Test func aTokenContinuesOnlyTheMinimumItWasMadeWith() async throws {
        let catalog = try await SearchCatalog(extraLandmarks: [("a-twin", "great-wall.jpg", [])])
        let query = catalog.fingerprint(of: "great-wall.jpg")
        let first = try await catalog.query.values(for: query, page: PageRequest(size: 1, minimumScore: 0.2))
        let token = try #require(first.nextPageToken)
        let second = try await catalog.query.values(for: query, page: PageRequest(size: 1, token: token, minimumScore: 0.2))
        #expect(second.offset == 1)
        for other in [nil, 0.3] as [Double?] {
            await #expect(throws: VisualSearchError.pageToken(.differentQuery)) {
                try await catalog.query.values(for: query, page: PageRequest(size: 1, token: token, minimumScore: other))
            }
        }
    }

    @Test func theContinuationCarriesTheMinimumAndIsUnchangedWithoutOne() throws {
        let version = CatalogVersion(catalogID: "c", generation: 3, tokenKey: SIMD2(1, 2))
        let inner = PageToken(offset: 10, pageSize: 10, queryDigest: 7, version: version)
        let withMinimum = SearchContinuation(fingerprint: SearchFixtures.blank, labels: ["a"], profile: 1, pageSize: 10, pageToken: inner, minimumScore: 0.25)
        #expect(try SearchContinuation(text: withMinimum.text(signedWith: version.tokenKey), version: version) == withMinimum)
        let without = SearchContinuation(fingerprint: SearchFixtures.blank, labels: ["a"], profile: 1, pageSize: 10, pageToken: inner)
        let text = without.text(signedWith: version.tokenKey)
        #expect(Base64URL.decode(text)?.first == 0x47, "a token without a minimum keeps the format replicas already accept")
        #expect(try SearchContinuation(text: text, version: version).minimumScore == nil)
        // A forged minimum outside 0…1 is refused even when signed.
        var forged = withMinimum
        forged.minimumScore = 2
        #expect(throws: PageTokenError.malformed) { try SearchContinuation(text: forged.text(signedWith: version.tokenKey), version: version) }
    }
}
