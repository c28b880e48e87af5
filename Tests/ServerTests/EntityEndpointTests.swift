import Foundation
import GlimpseAPITypes
import HTTPTypes
import Search
import Testing

/// The entity endpoints: documents, lists, thumbnails, exports; ids with slashes.
@Suite struct EntityEndpointTests {
    @Test func aPercentEncodedSlashIsOneIDSegment() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.request(.get, "/v1/landmarks/landmarks%2Fhurricane-ridge")
        #expect(answer.status == 200)
        let object = try answer.json()
        #expect(object["id"] as? String == "landmarks/hurricane-ridge")
        #expect(object["kind"] as? String == "landmark")
        #expect((object["collections"] as? [[String: Any]])?.first?["id"] as? String == "landmarks")
        #expect(object["image_statistics"] == nil, "deferred properties only when asked")
        // An unencoded slash is another route: 404, not a different landmark.
        #expect(try await server.request(.get, "/v1/landmarks/landmarks/hurricane-ridge").status == 404)
    }

    @Test func deferredPropertiesOnlyWhenAsked() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.request(.get, "/v1/landmarks/landmarks%2Fhurricane-ridge?with=image-statistics")
        #expect(answer.status == 200)
        let statistics = try #require(try answer.json()["image_statistics"] as? [String: Any])
        #expect(statistics["searchable"] as? Bool == true)
        let unknown = try await server.request(.get, "/v1/landmarks/landmarks%2Fhurricane-ridge?with=crowds")
        #expect(unknown.status == 400 && unknown.errorCode == "invalid_parameter")
        let onCollection = try await server.request(.get, "/v1/collections/landmarks?with=image-statistics")
        #expect(onCollection.status == 400)
    }

    @Test func collectionsListTheirLandmarksAndUnknownIDsAre404() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.request(.get, "/v1/collections/landmarks")
        #expect(answer.status == 200)
        let members = try #require(try answer.json()["landmarks"] as? [[String: Any]])
        #expect(members.count == 10)
        for path in ["/v1/collections/nope", "/v1/landmarks/nope", "/v1/landmarks/nope/thumbnail", "/v1/collections/nope/export"] {
            let missing = try await server.request(.get, path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.errorCode == "not_found")
        }
    }

    @Test func entitiesSkipsUnknownIDsInTheOrderAsked() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.request(.get, "/v1/entities?ids=food%2Fapricot,nope,landmarks,glimpse://landmark/landmarks%252Fhurricane-ridge")
        #expect(answer.status == 200)
        let list = try JSONDecoder().decode(Components.Schemas.EntityList.self, from: Data(answer.body))
        #expect(list.entities.map(\.id) == ["food/apricot", "landmarks", "landmarks/hurricane-ridge"])
        #expect(try await server.request(.get, "/v1/entities").status == 400)
        let tooMany = (0..<101).map { "id\($0)" }.joined(separator: ",")
        #expect(try await server.request(.get, "/v1/entities?ids=\(tooMany)").status == 400)
    }

    @Test func thumbnailsArePNGWithAnETagAnd304() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        for path in ["/v1/landmarks/landmarks%2Fhurricane-ridge/thumbnail", "/v1/collections/landmarks/thumbnail"] {
            let answer = try await server.request(.get, path)
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/png")
            #expect(answer.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let tag = try #require(answer.header("ETag"))
            let again = try await server.request(.get, path, headers: [.ifNoneMatch: tag])
            #expect(again.status == 304 && again.body.isEmpty)
            let stale = try await server.request(.get, path, headers: [.ifNoneMatch: "\"other\""])
            #expect(stale.status == 200)
        }
    }

    @Test func exportsInEveryRepresentation() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let base = "/v1/landmarks/food%2Fapricot/export"
        let json = try await server.request(.get, base + "?as=json")
        #expect(json.status == 200 && json.header("Content-Type") == "application/json; charset=utf-8")
        #expect(try json.json()["id"] as? String == "food/apricot")
        let text = try await server.request(.get, base + "?as=text")
        #expect(text.status == 200 && text.text.contains("food/apricot"))
        let png = try await server.request(.get, base + "?as=png")
        #expect(png.status == 200 && png.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try await server.request(.get, "/v1/collections/food/export").status == 200)
        let bad = try await server.request(.get, base + "?as=gif")
        #expect(bad.status == 400 && bad.errorCode == "invalid_parameter")
    }
}
