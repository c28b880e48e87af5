import Foundation
import GlimpseAPITypes
import HTTPTypes
import Search
@testable import Server
import Testing

/// Catalog changes over HTTP: only with the admin token, compared in constant time.
@Suite struct AdminEndpointTests {
    static let token = "s3cret-admin-token-0123456789"
    /// Reads the spec's types as the server writes them (dates in ISO 8601).
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func adminIsDisabledWithoutATokenFile() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let answer = try await server.request(.post, "/v1/admin/undo", headers: [.authorization: "Bearer \(Self.token)"])
        #expect(answer.status == 403 && answer.errorCode == "admin_disabled")
    }

    @Test func missingMalformedAndWrongTokensAreRefused() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.adminToken = Self.token }
        defer { Task { await server.stop() } }
        let body = Array(#"{"id": "food/apricot", "kind": "landmark", "mode": "archive"}"#.utf8)
        let none = try await server.request(.post, "/v1/admin/remove", body: body)
        #expect(none.status == 401 && none.header("WWW-Authenticate") != nil)
        for header in ["Basic abc", "Bearer", "Bearer  ", Self.token] {
            let malformed = try await server.request(.post, "/v1/admin/remove", headers: [.authorization: header], body: body)
            #expect(malformed.status == 401, "\(header)")
        }
        for wrong in ["wrong", Self.token + "x", String(Self.token.dropLast())] {
            let answer = try await server.request(.post, "/v1/admin/remove", headers: [.authorization: "Bearer \(wrong)"], body: body)
            #expect(answer.status == 403 && answer.errorCode == "forbidden")
        }
        #expect(try await server.request(.get, "/v1/landmarks/food%2Fapricot").status == 200, "nothing was removed")
    }

    @Test func removeThenUndoWithTheToken() async throws {
        let server = try await Harness.start(catalog: try await Harness.newCatalog()) { $0.adminToken = Self.token }
        defer { Task { await server.stop() } }
        let auth: HTTPFields = [.authorization: "Bearer \(Self.token)"]
        let removed = try await server.request(.post, "/v1/admin/remove", headers: auth,
                                               body: Array(#"{"id": "food/apricot", "kind": "landmark", "mode": "archive"}"#.utf8))
        #expect(removed.status == 200)
        let removal = try #require(try Self.decoder.decode(Components.Schemas.RemovalAnswer.self, from: Data(removed.body)).removal.optional)
        #expect(removal.reason == .archived && removal.entities == ["glimpse://landmark/food%2Fapricot"])
        #expect(try await server.request(.get, "/v1/landmarks/food%2Fapricot").status == 404)
        let again = try await server.request(.post, "/v1/admin/remove", headers: auth,
                                             body: Array(#"{"id": "food/apricot", "kind": "landmark", "mode": "delete"}"#.utf8))
        #expect(again.status == 404, "already removed")
        for bad in [#"{"id": "x"}"#, #"{"id": "food/apricot", "kind": "dog", "mode": "archive"}"#, #"{"id": "food/apricot", "kind": "landmark", "mode": "burn"}"#] {
            #expect(try await server.request(.post, "/v1/admin/remove", headers: auth, body: Array(bad.utf8)).status == 400, "\(bad)")
        }
        let undone = try await server.request(.post, "/v1/admin/undo", headers: auth)
        #expect(undone.status == 200)
        #expect(try Self.decoder.decode(Components.Schemas.RemovalAnswer.self, from: Data(undone.body)).removal.optional?.id == removal.id)
        #expect(try await server.request(.get, "/v1/landmarks/food%2Fapricot").status == 200)
        let nothing = try await server.request(.post, "/v1/admin/undo", headers: auth)
        #expect(nothing.status == 200 && nothing.text == #"{"removal":null}"#)
    }

    @Test func tokensCompareInConstantTimeShape() {
        func equal(_ a: String, _ b: String) -> Bool { BearerToken.constantTimeEqual(Array(a.utf8), Array(b.utf8)) }
        #expect(equal("abc", "abc"))
        #expect(!equal("abc", "abd"))
        #expect(!equal("abc", "abcd"))
        #expect(!equal("", "a"))
    }
}
