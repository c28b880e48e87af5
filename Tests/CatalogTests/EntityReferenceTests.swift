import Testing
@testable import Catalog

@Suite struct EntityReferenceTests {
    @Test func formatsAndParsesLandmarkAndCollectionURLs() throws {
        let landmark = EntityReference(kind: .landmark, id: "42")
        #expect(landmark.url == "glimpse://landmark/42")
        #expect(try EntityReference(url: "glimpse://collection/towers") == EntityReference(kind: .collection, id: "towers"))
    }

    @Test func percentEncodesIdsWithSlashesSpacesAndUnicode() throws {
        for id in ["europe/paris/eiffel", "Tour Eiffel", "café?#%", "東京/タワー"] {
            let reference = EntityReference(kind: .landmark, id: id)
            #expect(!reference.url.dropFirst("glimpse://landmark/".count).contains("/"))
            #expect(try EntityReference(url: reference.url) == reference)
        }
        #expect(EntityReference(kind: .landmark, id: "a/b c").url == "glimpse://landmark/a%2Fb%20c")
    }

    @Test func acceptsRawSlashesInTheIdPart() throws {
        #expect(try EntityReference(url: "glimpse://landmark/europe/paris/eiffel").id == "europe/paris/eiffel")
    }

    @Test func rejectsMalformedURLsWithTypedErrors() {
        #expect(throws: EntityURLError.notGlimpseURL("https://landmark/1")) { try EntityReference(url: "https://landmark/1") }
        #expect(throws: EntityURLError.unknownKind("glimpse://city/1", "city")) { try EntityReference(url: "glimpse://city/1") }
        #expect(throws: EntityURLError.missingID("glimpse://landmark/")) { try EntityReference(url: "glimpse://landmark/") }
        #expect(throws: EntityURLError.missingID("glimpse://landmark")) { try EntityReference(url: "glimpse://landmark") }
        #expect(throws: EntityURLError.invalidPercentEncoding("glimpse://landmark/a%2")) { try EntityReference(url: "glimpse://landmark/a%2") }
        #expect(throws: EntityURLError.invalidCharacters("glimpse://landmark/a?b=1")) { try EntityReference(url: "glimpse://landmark/a?b=1") }
    }

    @Test func entitiesExposeTypeNameDisplayRepresentationAndURL() {
        let landmark = LandmarkEntity(id: "x/y", name: "Y", continent: "Asia", referenceImages: [ReferenceImage(path: "/tmp/y.jpg")])
        #expect(LandmarkEntity.typeDisplayName == "Landmark")
        #expect(CollectionEntity.typeDisplayName == "Collection")
        #expect(landmark.displayRepresentation == DisplayRepresentation(title: "Y", subtitle: "Asia", thumbnailPath: "/tmp/y.jpg"))
        #expect(landmark.url == "glimpse://landmark/x%2Fy")
        let collection = CollectionEntity(id: "c", name: "C", landmarkIDs: ["a", "b"])
        #expect(collection.landmarkCount == 2)
        #expect(collection.displayRepresentation.subtitle == "2 landmarks")
        let result = VisualSearchResult.collection(collection)
        #expect(result.kind == .collection && result.url == "glimpse://collection/c" && result.landmark == nil)
    }
}
