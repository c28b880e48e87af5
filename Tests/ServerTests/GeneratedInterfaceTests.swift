import Catalog
import CatalogStores
import Foundation
import HTTPTypes
import Rendering
import Search
import Testing

/// The operations served through the interface generated from openapi.yaml: the spec's
/// nulls are sent, the answers are the bytes the CLI's records encode to, and a request that
/// does not follow the spec is refused with a code naming what is wrong.
@Suite struct GeneratedInterfaceTests {
    @Test func anEntityIsTheSameJSONTheCLIPrintsNullsIncluded() async throws {
        let catalog = try await Harness.sharedCatalog.value
        let server = try await Harness.start(catalog: catalog)
        defer { Task { await server.stop() } }
        let store = try await CatalogStores.open(CatalogLocation(catalog), mode: .readOnly)
        for (path, reference) in [("/v1/landmarks/food%2Fapricot", EntityReference(kind: .landmark, id: "food/apricot")),
                                  ("/v1/collections/food", EntityReference(kind: .collection, id: "food"))] {
            let answer = try await server.request(.get, path)
            let document = try await EntityDetails.open(reference, in: store).document
            #expect(answer.status == 200 && answer.text == WireJSON.line(document), "\(path)")
        }
        // A landmark without a location says so with null rather than leaving the key out.
        let apricot = try await server.request(.get, "/v1/landmarks/food%2Fapricot").json()
        #expect(apricot["location"] is NSNull && apricot.keys.contains("subtitle") && apricot.keys.contains("thumbnail"))
    }

    @Test func theLastPageSaysItsTokenIsNull() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let pdq = #"{"pdq": "366e3b07998dd58e4e03cb139ba2b5e22ef10e5995bd30ee62db8a5881bcc166"}"#
        let page = try await server.request(.post, "/v1/search/fingerprint?page_size=100", body: Array(pdq.utf8))
        #expect(page.status == 200)
        let object = try page.json()
        #expect(object["next_page_token"] is NSNull, "\(page.text.prefix(200))")
        // The same lookup with curl's default form type is still read as JSON.
        let form = try await server.request(.post, "/v1/search/fingerprint?page_size=100",
                                            headers: [.contentType: "application/x-www-form-urlencoded"], body: Array(pdq.utf8))
        let formResults = try form.json()["results"] as? [Any]
        #expect(form.status == 200 && formResults?.count == (object["results"] as? [Any])?.count)
    }

    @Test func aRequestThatDoesNotFollowTheSpecIsRefusedNamingWhatIsWrong() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let pdq = Array(#"{"pdq": "366e3b07998dd58e4e03cb139ba2b5e22ef10e5995bd30ee62db8a5881bcc166"}"#.utf8)
        let badSize = try await server.request(.post, "/v1/search/fingerprint?page_size=ten", body: pdq)
        #expect(badSize.status == 400 && badSize.errorCode == "invalid_parameter" && badSize.text.contains("page_size=ten"), "\(badSize.text)")
        let badExport = try await server.request(.get, "/v1/landmarks/food%2Fapricot/export?as=gif")
        #expect(badExport.status == 400 && badExport.errorCode == "invalid_parameter" && badExport.text.contains("as=gif"), "\(badExport.text)")
        let wrongField = try await server.request(.post, "/v1/search/fingerprint", body: Array(#"{"pdq": 5}"#.utf8))
        #expect(wrongField.status == 400 && wrongField.errorCode == "invalid_body" && wrongField.text.contains("at pdq"), "\(wrongField.text)")
        let notJSON = try await server.request(.post, "/v1/search/fingerprint", body: Array("pdq=5".utf8))
        #expect(notJSON.status == 400 && notJSON.errorCode == "invalid_body", "\(notJSON.text)")
        let missing = try await server.request(.get, "/v1/entities")
        #expect(missing.status == 400 && missing.errorCode == "missing_parameter" && missing.text.contains("ids"), "\(missing.text)")
        let html = try await server.request(.get, "/healthz", headers: [.accept: "text/html"])
        #expect(html.status == 406 && html.errorCode == "not_acceptable", "\(html.text)")
        // */* (what browsers add) and no Accept at all are answered.
        #expect(try await server.request(.get, "/healthz", headers: [.accept: "text/html, */*;q=0.8"]).status == 200)
        #expect(try await server.request(.get, "/healthz").status == 200)
    }

    @Test func aJSONBodyOverItsLimitIsRefusedBeforeItIsDecoded() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let padded = Array((#"{"pdq": "366e3b07998dd58e4e03cb139ba2b5e22ef10e5995bd30ee62db8a5881bcc166", "x": ""#
            + String(repeating: "a", count: 70_000) + #""}"#).utf8)
        let answer = try await server.request(.post, "/v1/search/fingerprint", body: padded)
        #expect(answer.status == 413 && answer.errorCode == "payload_too_large", "\(answer.text.prefix(200))")
    }
}
