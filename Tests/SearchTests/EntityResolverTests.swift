import Catalog
import Testing
@testable import Search

@Suite struct EntityResolverTests {
    @Test func opensEntitiesByURLAndByKindAndId() async throws {
        let catalog = try await SearchCatalog()
        let resolver = EntityResolver(store: catalog.store)
        #expect(try await resolver.entity(for: "glimpse://landmark/eiffel").landmark?.id == "eiffel")
        #expect(try await resolver.entity(for: EntityReference(kind: .collection, id: "europe")).collection?.landmarkIDs == ["eiffel", "colosseum"])
    }

    @Test func unknownOrRemovedIdsAndBadURLsGiveTypedErrors() async throws {
        let catalog = try await SearchCatalog()
        let resolver = EntityResolver(store: catalog.store)
        await #expect(throws: EntityResolutionError.notFound(EntityReference(kind: .landmark, id: "atlantis"))) {
            try await resolver.entity(for: "glimpse://landmark/atlantis")
        }
        await #expect(throws: EntityResolutionError.invalidURL(.unknownKind("glimpse://city/x", "city"))) {
            try await resolver.entity(for: "glimpse://city/x")
        }
        try await catalog.store.remove(EntityReference(kind: .collection, id: "towers"))
        await #expect(throws: EntityResolutionError.notFound(EntityReference(kind: .collection, id: "towers"))) {
            try await resolver.entity(for: "glimpse://collection/towers")
        }
    }

    @Test func entitiesForSkipsUnknownIdsLikeEntityQuery() async throws {
        let catalog = try await SearchCatalog()
        let resolver = EntityResolver(store: catalog.store)
        let found = try await resolver.entities(for: [
            EntityReference(kind: .collection, id: "asia"), EntityReference(kind: .landmark, id: "nope"),
            EntityReference(kind: .landmark, id: "great-wall"), EntityReference(kind: .collection, id: "asia"),
        ])
        #expect(found.map(\.url) == ["glimpse://collection/asia", "glimpse://landmark/great-wall"])
        #expect(try await resolver.landmarks(for: ["x", "colosseum"]).map(\.id) == ["colosseum"])
    }
}
