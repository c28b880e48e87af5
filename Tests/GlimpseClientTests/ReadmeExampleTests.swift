import Foundation
import GlimpseAPITypes
import GlimpseClient
import GlimpseProcessTesting
import Testing

/// The README's "Calling Glimpse from Swift" example, compiled and run against a real
/// `glimpse serve`. `scripts/check_readme.py` checks that the README's Swift block ends with the
/// lines between the markers below, so the README shows code that builds and works.
@Suite struct ReadmeExampleTests {
    /// The example's body; returns its first page so the test can check it.
    static func example(serverURL: String, image: Data) async throws -> ResultPage {
        // README example begins
        let glimpse = try GlimpseClient(serverURL: serverURL)
        let page = try await glimpse.search(image: image, region: .pixels(x: 4, y: 211, width: 712, height: 332), pageSize: 1)
        for result in page.results {
            print(result.score, result.kind, result.id, result.title)  // 0.6624 landmark landmarks/hurricane-ridge Hurricane Ridge
        }
        if let token = page.nextPageToken.optional {
            let more = try await glimpse.nextPage(token: token)
            print(more.results.map(\.id))  // ["landmarks"]: the collection that holds it
        }
        do {
            _ = try await glimpse.landmark(id: "no/such-place")
        } catch {
            print(error.code ?? "", error)  // not_found glimpse server refused the request: 404 not_found: …
        }
        // README example ends
        return page
    }

    @Test func theReadmeExampleFindsTheLandmarkAndItsCollection() async throws {
        let server = try await ServedGlimpse(catalog: try await GlimpseClientTests.sampleCatalog.value, extra: GlimpseClientTests.patientUploads)
        defer { server.stop() }
        let image = try Data(contentsOf: URL(fileURLWithPath: GlimpseExecutable.testdata("samples/screenshot-hurricane-ridge.png")))
        let page = try await Self.example(serverURL: server.baseURL, image: image)
        #expect(page.results.map(\.id) == ["landmarks/hurricane-ridge"] && page.nextPageToken != nil)
    }
}
