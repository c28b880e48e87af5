import Foundation
import Testing
@testable import Rendering

/// Invariants of the search page's HTML that hold without a browser (the behaviour is
/// checked in headless Chromium by scripts/browser-test.sh).
@Suite("Rendering: the search page of glimpse serve")
struct SearchPageTests {
    let html = SearchPage.html(nonce: "bm9uY2U=")

    /// Every match of `pattern`'s first capture group in `text`.
    static func captures(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func thePageIsOneSelfContainedDocument() {
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(html.components(separatedBy: "<style>").count - 1 == 1)
        #expect(html.components(separatedBy: "<script nonce=\"bm9uY2U=\">").count - 1 == 1)
        #expect(html.components(separatedBy: "<script").count - 1 == 1)
        #expect(html.hasSuffix("</body></html>\n"))
    }

    @Test func thePageLoadsNothingFromAnotherOrigin() throws {
        for forbidden in ["http://", "https://", "<link", "@import", "url(", "<script src", "src=\"//", "href=\"//", "@font-face"] {
            #expect(!html.contains(forbidden), "the page contains \(forbidden)")
        }
        // No static element loads anything at all: pictures come from the API at run time.
        #expect(try Self.captures(#"\s(?:src|href)="([^"]*)""#, in: SearchPage.body).isEmpty)
        let policy = SearchPage.contentSecurityPolicy(nonce: "bm9uY2U=")
        #expect(policy.contains("default-src 'none'") && policy.contains("connect-src 'self'"))
        #expect(policy.contains("script-src 'nonce-bm9uY2U='") && !policy.contains("script-src 'unsafe-inline'"))
        #expect(!policy.contains("http"))
        // Fresh for every response: 128 random bits.
        let nonces = (0..<100).map { _ in SearchPage.makeNonce() }
        #expect(Set(nonces).count == 100 && nonces.allSatisfy { Data(base64Encoded: $0)?.count == 16 })
    }

    @Test func everyElementTheScriptLooksUpExistsOnce() throws {
        let staticIDs = try Self.captures(#"\sid="([^"]+)""#, in: SearchPage.body)
        #expect(Set(staticIDs).count == staticIDs.count, "duplicate ids: \(staticIDs)")
        let createdIDs = try Self.captures(#"\bid: "([^"]+)""#, in: SearchPage.script)
        let lookedUp = try Set(Self.captures(#"\$\("([^"]+)"\)"#, in: SearchPage.script)
            + Self.captures(#"getElementById\('([^']+)'\)"#, in: SearchPage.script))
        #expect(lookedUp.count >= 30)
        let known = Set(staticIDs + createdIDs)
        #expect(lookedUp.subtracting(known).isEmpty, "looked up but never defined: \(lookedUp.subtracting(known).sorted())")
        // Every <label for=…> names a control that exists.
        let labelled = try Self.captures(#"<label[^>]*\sfor="([^"]+)""#, in: SearchPage.body)
        #expect(!labelled.isEmpty && Set(labelled).isSubset(of: Set(staticIDs)))
    }

    @Test func theMarkupIsBalanced() {
        for tag in ["div", "section", "main", "form", "ul", "p", "label", "select", "details", "dialog", "header", "button", "h1", "h2"] {
            let opened = SearchPage.body.components(separatedBy: "<\(tag)>").count + SearchPage.body.components(separatedBy: "<\(tag) ").count - 2
            let closed = SearchPage.body.components(separatedBy: "</\(tag)>").count - 1
            #expect(opened == closed, "<\(tag)>: \(opened) opened, \(closed) closed")
        }
    }

    @Test func everyRequestGoesThroughOneTimedCallAndEncodesIdsAsOneSegment() {
        let script = SearchPage.script
        // One fetch, inside call(), which always arms an AbortController timer.
        #expect(script.components(separatedBy: "fetch(").count - 1 == 1)
        #expect(script.contains("new AbortController()") && script.contains("setTimeout(") && script.contains("clearTimeout(timer)"))
        #expect(script.contains("v1/search?") && script.contains("page_token=${encodeURIComponent(state.nextToken)}"))
        // Ids hold slashes: always one encoded path segment.
        #expect(script.contains("/${encodeURIComponent(id)}/thumbnail") && script.contains("/${encodeURIComponent(id)}`"))
        #expect(!script.contains("/${id}"))
    }

    @Test func serverTextIsNeverParsedAsHTML() {
        for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
            #expect(!SearchPage.script.contains(sink), "the script uses \(sink)")
        }
        #expect(SearchPage.script.contains("textContent"))
    }

    @Test func everyErrorStatusOfTheAPIHasItsOwnMessage() {
        // The statuses the API documents for a search or a page: each has a headline.
        for (status, headline) in [(413, "The file is too large"), (415, "This file cannot be searched"), (422, "This file cannot be searched"),
                                   (429, "The server is busy"), (410, "These results have expired"), (404, "Not found"),
                                   (503, "The server is unavailable")] {
            #expect(SearchPage.script.contains("status === \(status)"), "no branch for \(status)")
            #expect(SearchPage.script.contains(headline))
        }
        for kind in ["timeout", "network"] { #expect(SearchPage.script.contains("case \"\(kind)\"")) }
        #expect(SearchPage.script.contains("Retry-After"))
    }

    @Test func thePageAndTheContactSheetShareOneStylesheet() async {
        #expect(html.contains(PageStyle.css))
        let sheet = await ContactSheet().html(records: [], landmarkThumbnails: [:])
        #expect(sheet.contains(PageStyle.css))
        #expect(!PageStyle.css.contains("url(") && !PageStyle.css.contains("@import"))
        // Both use the shared card, grid and badge rules.
        for rule in [".grid{", ".card{", ".badge{", ":focus-visible{", "[hidden]{display:none!important}"] { #expect(PageStyle.css.contains(rule)) }
    }
}
