import Catalog
import Foundation
import PixelBuffers
import SQLiteStore
import Testing
@testable import Search

@Suite struct VisualSearchQueryTests {
    @Test func nilPixelBufferGivesAnEmptyPage() async throws {
        let catalog = try await SearchCatalog()
        let page = try await catalog.query.values(for: SemanticContentDescriptor(pixelBuffer: nil, labels: ["tower"]))
        #expect(page.items.isEmpty && page.nextPageToken == nil && !page.isPartial && page.totalCount == 0)
    }

    @Test func pixelsAreFingerprintedAndMatchTheLandmarkAndItsCollections() async throws {
        let catalog = try await SearchCatalog()
        let pixels = try PixelBuffer(format: .gray8, width: 2, height: 2, bytes: [0, 50, 100, 150])
        let page = try await catalog.query.values(for: SemanticContentDescriptor(pixelBuffer: pixels))
        // eiffel (1.0), then its collections europe and towers (1.0, landmark first, then id).
        #expect(page.values.map(\.reference.url) == ["glimpse://landmark/eiffel", "glimpse://collection/europe", "glimpse://collection/towers"])
        #expect(page.items.allSatisfy { $0.score == 1 })
        #expect(page.values[0].landmark?.keywords == ["tower", "Paris"])
        #expect(page.values[1].collection?.landmarkIDs == ["eiffel", "colosseum"])
    }

    @Test func anUnrelatedQueryGetsAnEmptyAnswer() async throws {
        let catalog = try await SearchCatalog()
        let page = try await catalog.query.values(for: SearchFixtures.fingerprint(seed: 1234))
        #expect(page.items.isEmpty && page.nextPageToken == nil)
        #expect(try await catalog.query.values(for: SearchFixtures.blank).items.isEmpty)
    }

    @Test func labelsBoostMatchingLandmarksButNeverCreateAMatch() async throws {
        let catalog = try await SearchCatalog()
        let query = SearchFixtures.perturbed(catalog.fingerprint(of: "eiffel.jpg"), bits: 5)
        let plain = try await catalog.query.values(for: query)
        let boosted = try await catalog.query.values(for: query, labels: ["TOWER ", "paris", "bridge"])
        let plainScore = try #require(plain.items.first { $0.value.reference.id == "eiffel" }).score
        let boostedItem = try #require(boosted.items.first { $0.value.reference.id == "eiffel" })
        #expect(boostedItem.matchedLabels == ["paris", "tower"])
        #expect(abs(boostedItem.score - min(1, plainScore + 0.10)) < 1e-12)
        // "wall" names great-wall's keyword, but great-wall does not look like the query.
        let labelsOnly = try await catalog.query.values(for: SearchFixtures.fingerprint(seed: 777), labels: ["wall", "tower", "amphitheatre"])
        #expect(labelsOnly.items.isEmpty)
        let withWall = try await catalog.query.values(for: query, labels: ["wall"])
        #expect(!withWall.values.contains { $0.reference.id == "great-wall" })
    }

    @Test func collectionsAreRankedByTheirMatchingMembers() async throws {
        // A twin of eiffel in europe: europe then has two matching members and gets a bonus;
        // towers has one matching member and scores exactly that member's score.
        let catalog = try await SearchCatalog(
            extraLandmarks: [("eiffel-copy", "eiffel.jpg", [])],
            collections: [("europe", ["eiffel", "colosseum", "eiffel-copy"]), ("towers", ["eiffel"]), ("asia", ["great-wall"])])
        let page = try await catalog.query.values(for: SearchFixtures.perturbed(catalog.fingerprint(of: "eiffel.jpg"), bits: 4))
        let scores = Dictionary(uniqueKeysWithValues: page.items.map { ($0.value.reference.url, $0.score) })
        let eiffel = try #require(scores["glimpse://landmark/eiffel"])
        #expect(eiffel < 0.98)
        #expect(scores["glimpse://landmark/eiffel-copy"] == eiffel)
        #expect(scores["glimpse://collection/towers"] == eiffel)
        #expect(scores["glimpse://collection/europe"] == eiffel + 0.02)
        #expect(scores["glimpse://collection/asia"] == nil, "no member of asia matches")
        #expect(page.values.map(\.reference.url) == [
            "glimpse://collection/europe", "glimpse://landmark/eiffel", "glimpse://landmark/eiffel-copy", "glimpse://collection/towers",
        ])
    }

    @Test func equalScoresAreOrderedLandmarksFirstThenById() async throws {
        let catalog = try await SearchCatalog(extraLandmarks: [("b-twin", "great-wall.jpg", []), ("a-twin", "great-wall.jpg", [])])
        let page = try await catalog.query.values(for: catalog.fingerprint(of: "great-wall.jpg"))
        #expect(page.values.map(\.reference.url) == [
            "glimpse://landmark/a-twin", "glimpse://landmark/b-twin", "glimpse://landmark/great-wall", "glimpse://collection/asia",
        ])
        // Same query again: same order.
        #expect(try await catalog.query.values(for: catalog.fingerprint(of: "great-wall.jpg")).values == page.values)
    }

    @Test func pageTokensContinueTheRankingWithoutGapsOrRepeats() async throws {
        let catalog = try await SearchCatalog(extraLandmarks: [("b-twin", "great-wall.jpg", []), ("a-twin", "great-wall.jpg", [])])
        let query = catalog.fingerprint(of: "great-wall.jpg")
        let all = try await catalog.query.values(for: query, page: PageRequest(size: 100)).values
        var collected: [VisualSearchResult] = []
        var token: PageToken?
        repeat {
            let page = try await catalog.query.values(for: query, page: PageRequest(size: 1, token: token))
            collected += page.values
            token = page.nextPageToken
        } while token != nil
        #expect(collected == all && all.count == 4)
        // Tokens are opaque base64url text.
        let first = try #require(try await catalog.query.values(for: query, page: PageRequest(size: 1)).nextPageToken)
        #expect(first.text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func tamperedTokensAreRefused() async throws {
        let catalog = try await SearchCatalog(extraLandmarks: [("a-twin", "great-wall.jpg", [])])
        let query = catalog.fingerprint(of: "great-wall.jpg")
        let token = try #require(try await catalog.query.values(for: query, page: PageRequest(size: 1)).nextPageToken)
        // Change one character in the middle (the offset/digest bytes).
        var characters = Array(token.text)
        let i = 3
        characters[i] = characters[i] == "A" ? "B" : "A"
        await #expect(throws: VisualSearchError.pageToken(.tampered)) {
            try await catalog.query.values(for: query, page: PageRequest(size: 1, token: PageToken(String(characters))))
        }
        await #expect(throws: VisualSearchError.pageToken(.malformed)) {
            try await catalog.query.values(for: query, page: PageRequest(size: 1, token: PageToken("not a token!")))
        }
        await #expect(throws: VisualSearchError.pageToken(.malformed)) {
            try await catalog.query.values(for: query, page: PageRequest(size: 1, token: PageToken(String(token.text.dropLast(4)))))
        }
    }

    @Test func tokensFromAChangedCatalogAnotherQueryOrAnotherCatalogAreRefused() async throws {
        let catalog = try await SearchCatalog(extraLandmarks: [("a-twin", "great-wall.jpg", [])])
        let query = catalog.fingerprint(of: "great-wall.jpg")
        let token = try #require(try await catalog.query.values(for: query, page: PageRequest(size: 1)).nextPageToken)

        await #expect(throws: VisualSearchError.pageToken(.differentQuery)) {
            try await catalog.query.values(for: query, labels: ["wall"], page: PageRequest(size: 1, token: token))
        }
        let other = try await SearchCatalog(extraLandmarks: [("a-twin", "great-wall.jpg", [])])
        await #expect(throws: VisualSearchError.pageToken(.differentCatalog)) {
            try await other.query.values(for: query, page: PageRequest(size: 1, token: token))
        }

        let generation = try await catalog.store.catalogVersion().generation
        try await catalog.store.remove(EntityReference(kind: .landmark, id: "colosseum"))
        await #expect(throws: VisualSearchError.pageToken(.catalogChanged(tokenGeneration: generation, currentGeneration: generation + 1))) {
            try await catalog.query.values(for: query, page: PageRequest(size: 1, token: token))
        }
        let message = VisualSearchError.pageToken(.catalogChanged(tokenGeneration: 1, currentGeneration: 2)).description
        #expect(message.contains("catalog changed") && message.contains("first page"))
    }

    @Test func anExpiredDeadlineMarksThePagePartial() async throws {
        let catalog = try await SearchCatalog()
        let page = try await catalog.query.values(for: catalog.fingerprint(of: "eiffel.jpg"), page: PageRequest(deadline: .zero))
        #expect(page.isPartial)
        let complete = try await catalog.query.values(for: catalog.fingerprint(of: "eiffel.jpg"))
        #expect(!complete.isPartial && complete.values.first?.reference.id == "eiffel")
    }

    @Test func removedLandmarksDisappearFromResultsAndComeBackOnUndo() async throws {
        let catalog = try await SearchCatalog()
        let query = catalog.fingerprint(of: "eiffel.jpg")
        try await catalog.store.remove(EntityReference(kind: .landmark, id: "eiffel"))
        #expect(try await catalog.query.values(for: query).items.isEmpty)
        try await catalog.store.undoLastRemoval()
        #expect(try await catalog.query.values(for: query).values.first?.reference.id == "eiffel")
    }

    @Test func invalidPageSizeIsRefused() async throws {
        let catalog = try await SearchCatalog()
        await #expect(throws: VisualSearchError.invalidPageSize(0)) {
            try await catalog.query.values(for: catalog.fingerprint(of: "eiffel.jpg"), page: PageRequest(size: 0))
        }
    }
}
