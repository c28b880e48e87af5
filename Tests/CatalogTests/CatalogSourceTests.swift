import Foundation
import Testing
@testable import Catalog
import CatalogTestSupport

@Suite struct CatalogSourceTests {
    @Test func manifestLoadsLandmarksCollectionsAndResolvedImagePaths() throws {
        let content = try ManifestCatalogSource(manifestPath: Fixtures.manifest).load()
        #expect(content.landmarks.map(\.id) == ["eiffel-tower", "europe/colosseum", "great-wall"])
        let eiffel = content.landmarks[0]
        #expect(eiffel.name == "Eiffel Tower" && eiffel.continent == "Europe" && eiffel.keywords == ["tower", "paris", "iron"])
        #expect(eiffel.location == GeoLocation(latitude: 48.8584, longitude: 2.2945))
        #expect(eiffel.referenceImages.map(\.path) == [Fixtures.root.appendingPathComponent("manifest/images/eiffel.jpg").path])
        #expect(content.collections.map(\.id) == ["europe", "towers"])
        #expect(content.collections[0].landmarkIDs == ["eiffel-tower", "europe/colosseum"])
    }

    @Test func invalidManifestNamesEveryEntryAndField() throws {
        let path = Fixtures.root.appendingPathComponent("manifest/invalid.json").path
        let images = Fixtures.root.appendingPathComponent("manifest/images").path
        let result = Result { () throws(CatalogSourceError) in try ManifestCatalogSource(manifestPath: path).load() }
        guard case .failure(.invalid(let source, let issues)) = result else {
            Issue.record("expected an invalid-manifest error, got \(result)")
            return
        }
        do {
            #expect(source == path)
            let expected: [CatalogIssue] = [
                .missingField(entry: "landmarks[2] \"no-name\"", field: "name"),
                .wrongType(entry: "landmarks[3] \"bad-types\"", field: "name", expected: "a string", found: "a number"),
                .wrongType(entry: "landmarks[3] \"bad-types\"", field: "keywords", expected: "an array of strings", found: "a string"),
                .missingImage(entry: "landmarks[4] \"missing-image\"", field: "images[0]", path: images + "/nowhere.jpg"),
                .notAnImage(entry: "landmarks[5] \"fake-image\"", field: "images[0]", path: images + "/fake.jpg"),
                .invalidValue(entry: "landmarks[6] \"bad-location\"", field: "location", reason: "must have latitude in -90…90 and longitude in -180…180"),
                .unknownField(entry: "landmarks[7] \"typo\"", field: "imgs"),
                .missingField(entry: "landmarks[7] \"typo\"", field: "images"),
            ]
            for issue in expected { #expect(issues.contains(issue), "missing issue: \(issue)") }
        }
    }

    @Test func duplicateIdsAndUnknownCollectionMembersAreReported() throws {
        let content = CatalogContent(
            landmarks: [LandmarkEntity(id: "a", name: "A"), LandmarkEntity(id: "a", name: "A2")],
            collections: [CollectionEntity(id: "c", name: "C", landmarkIDs: ["a", "atlantis", "a"])])
        #expect(throws: CatalogSourceError.invalid(source: "test", issues: [
            .duplicateID(entry: "landmarks[1]", id: "a", firstEntry: "landmarks[0]"),
            .unknownLandmark(entry: "collections[0]", field: "landmarks[1]", id: "atlantis"),
            .invalidValue(entry: "collections[0]", field: "landmarks[2]", reason: "\"a\" is listed twice"),
        ])) { try content.validated(source: "test") }
    }

    @Test func malformedOrMissingManifestGivesTypedErrors() {
        let malformed = Fixtures.root.appendingPathComponent("manifest/malformed.json").path
        #expect { try ManifestCatalogSource(manifestPath: malformed).load() } throws: { error in
            if case CatalogSourceError.malformedJSON(let path, _) = error { return path == malformed }
            return false
        }
        #expect { try ManifestCatalogSource(manifestPath: "/nonexistent/catalog.json").load() } throws: { error in
            guard case CatalogSourceError.unreadable(let path, _) = error else { return false }
            return path == "/nonexistent/catalog.json" && "\(error)".hasPrefix("/nonexistent/catalog.json: ")
        }
    }

    @Test func folderImagesBecomeLandmarksIdentifiedByRelativePathWithoutExtension() throws {
        let content = try FolderCatalogSource(folderPath: Fixtures.folder).load()
        // Sniffed by content: mislabelled.dat is a PNG; notes.txt and hidden files are skipped.
        #expect(Set(content.landmarks.map(\.id)) == ["asia/great-wall", "asia/mislabelled", "europe/colosseum", "europe/paris/eiffel", "top-level"])
        let eiffel = try #require(content.landmarks.first { $0.id == "europe/paris/eiffel" })
        #expect(eiffel.name == "eiffel")
        #expect(eiffel.referenceImages.map(\.path) == [Fixtures.root.appendingPathComponent("folder/europe/paris/eiffel.jpg").path])
    }

    @Test func everySubfolderWithImagesIsACollectionOfTheImagesDirectlyInIt() throws {
        let content = try FolderCatalogSource(folderPath: Fixtures.folder).load()
        #expect(content.collections.map(\.id) == ["asia", "europe", "europe/paris"])
        #expect(content.collections.map(\.name) == ["asia", "europe", "paris"])
        #expect(content.collections.map(\.landmarkIDs) == [["asia/great-wall", "asia/mislabelled"], ["europe/colosseum"], ["europe/paris/eiffel"]])
    }

    @Test func folderWithTwoImagesOfTheSameStemIsRejected() throws {
        let folder = try Fixtures.scratchCopy(of: "folder")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("europe/colosseum.png"), to: folder.appendingPathComponent("europe/colosseum.jpg"))
        #expect(throws: CatalogSourceError.invalid(source: folder.path, issues: [
            .duplicateID(entry: "europe/colosseum.png", id: "europe/colosseum", firstEntry: "europe/colosseum.jpg"),
        ])) { try FolderCatalogSource(folderPath: folder.path).load() }
    }
}
