import Foundation
import HTTPTypes
import Testing

/// `GET /`: the search page, compiled into the server (its behaviour in a browser is
/// checked by scripts/browser-test.sh).
@Suite struct SearchPageRouteTests {
    @Test func theRootServesTheSelfContainedSearchPageWithItsSecurityPolicy() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let page = try await server.request(.get, "/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.hasPrefix("default-src 'none';") && policy.contains("connect-src 'self'") && !policy.contains("http"))
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        #expect(page.text.hasPrefix("<!DOCTYPE html>") && page.text.contains("<input id=\"file\" type=\"file\""))
        #expect(page.text.contains("v1/search?") && !page.text.contains("https://"))
        #expect(page.header("X-Request-ID")?.isEmpty == false)
    }

    @Test func thePagesScriptRunsByANonceFreshForEveryResponseAndNoInlineScriptElse() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        var nonces: [String] = []
        for _ in 0..<2 {
            let page = try await server.request(.get, "/")
            let policy = try #require(page.header("Content-Security-Policy"))
            #expect(!policy.contains("script-src 'unsafe-inline'"))
            let nonce = try #require(policy.split(separator: ";").first { $0.contains("script-src") }?
                .components(separatedBy: "'nonce-").last?.components(separatedBy: "'").first)
            #expect(policy.contains("script-src 'nonce-\(nonce)';"))
            #expect(page.text.contains("<script nonce=\"\(nonce)\">"))
            #expect(page.text.components(separatedBy: "<script").count == 2, "one script element")
            #expect(page.header("Cache-Control") == "no-store")
            nonces.append(nonce)
        }
        #expect(nonces[0] != nonces[1])
    }
}
