import Catalog
import Testing
@testable import Search

/// Identical searches running at once scan once: the first makes the ranking, the others
/// wait for it when it is due within their own deadline, and make their own otherwise.
@Suite struct SharedRankingTests {
    @Test func identicalSearchesRunningAtOnceScanOnceAndGetTheSamePage() async throws {
        let catalog = try await SearchCatalog()
        _ = try await catalog.query.values(for: SearchFixtures.fingerprint(seed: 4321))   // the index, built
        let query = SearchFixtures.perturbed(catalog.fingerprint(of: "eiffel.jpg"), bits: 5)
        let pages = try await withThrowingTaskGroup(of: ResultPage<VisualSearchResult>.self) { group in
            for _ in 0..<12 { group.addTask { try await catalog.query.values(for: query) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(pages.count == 12)
        #expect(pages.filter { $0.stageTimes.indexSearch != nil }.count == 1, "one of the twelve scanned; the others shared or kept its ranking")
        #expect(Set(pages).count == 1, "every page is the same")
        #expect(pages.first?.values.first?.reference.id == "eiffel")
    }

    @Test func searchesStartingColdAtOnceLoadTheIndexOnce() async throws {
        let catalog = try await SearchCatalog()
        let cache = SearchIndexCache(store: catalog.store, minimumViewQuality: SimilarityScoring.default.minimumViewQuality)
        // Eight searches find no index: one loads it, the others wait for that load.
        let storages = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 { group.addTask { ObjectIdentifier(try await cache.current().index.base.storage) } }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(storages.count == 1, "one index in memory, not one per search")
        let again = ObjectIdentifier(try await cache.current().index.base.storage)
        #expect(storages == [again], "kept for the next search")
    }

    @Test func aWaitingSearchGetsTheRankingOrMakesItsOwnWhenItCannotBeShared() async throws {
        let catalog = try await SearchCatalog()
        let cache = SearchIndexCache(store: catalog.store, minimumViewQuality: SimilarityScoring.default.minimumViewQuality)
        let key = SearchIndexCache.RankingKey(queryDigest: 7, generation: 1, configuration: SearchConfiguration())
        let now = ContinuousClock.now
        let ranking = SearchRanking(entries: [.init(reference: EntityReference(kind: .landmark, id: "eiffel"), score: 0.9, matchedLabels: [])],
                                    isPartial: false, landmarks: [:])

        #expect(Self.isMake(await cache.claimRanking(for: key, deadline: now + .seconds(10))), "nothing kept or running: this search makes it")
        // A search due earlier than the running one does not wait for it.
        #expect(Self.isMakeAlone(await cache.claimRanking(for: key, deadline: now + .seconds(1))))
        // One due later waits, and gets the ranking once it is made.
        let waiter = Task { await cache.claimRanking(for: key, deadline: now + .seconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        await cache.finishRanking(ranking, for: key)
        #expect(Self.entries(await waiter.value) == ranking.entries)
        // Kept afterwards.
        #expect(Self.entries(await cache.claimRanking(for: key, deadline: now)) == ranking.entries)

        // A making that fails (or whose ranking cannot be kept) lets each waiter make its own.
        let other = SearchIndexCache.RankingKey(queryDigest: 8, generation: 1, configuration: SearchConfiguration())
        #expect(Self.isMake(await cache.claimRanking(for: other, deadline: now + .seconds(10))))
        let second = Task { await cache.claimRanking(for: other, deadline: now + .seconds(20)) }
        try await Task.sleep(for: .milliseconds(100))
        await cache.finishRanking(nil, for: other)
        #expect(Self.isMakeAlone(await second.value))
        // Nothing running any more: the next search makes it again.
        #expect(Self.isMake(await cache.claimRanking(for: other, deadline: now + .seconds(10))))
        await cache.finishRanking(nil, for: other)
    }

    static func isMake(_ claim: SearchIndexCache.RankingClaim) -> Bool { if case .make = claim { true } else { false } }
    static func isMakeAlone(_ claim: SearchIndexCache.RankingClaim) -> Bool { if case .makeAlone = claim { true } else { false } }
    static func entries(_ claim: SearchIndexCache.RankingClaim) -> [SearchRanking.Entry]? { if case .ready(let r) = claim { r.entries } else { nil } }
}
