import Foundation
import GlimpseAPITypes
import GlimpseClient
import GlimpseProcessTesting
import Testing

/// What the client does when the other end is not a well-behaved `glimpse serve`: a proxy's
/// HTML error page, a body that is not the API's, an answer over the size cap, a `Retry-After`
/// too long to wait. Each is a typed error naming what arrived; nothing hangs or crashes.
@Suite struct MisbehavingServerTests {
    @Test func aProxysHTMLErrorPageIsAnUnexpectedResponseNamingItsStatus() async throws {
        let peer = try ScriptedPeer(status: "502 Bad Gateway", headers: ["Content-Type: text/html"],
                                    body: "<html><body>upstream unavailable</body></html>")
        let glimpse = try GlimpseClient(serverURL: "http://127.0.0.1:\(peer.port)", configuration: .init(retries: 0))
        do {
            _ = try await glimpse.health()
            Issue.record("a 502 page was accepted")
        } catch {
            guard case .unexpectedResponse(let status, let detail) = error else { Issue.record("\(error)"); return }
            #expect(status == 502 && detail.contains("text/html") && detail.contains("upstream unavailable"), "\(detail)")
        }
    }

    @Test func aSuccessBodyThatIsNotTheAPIsIsAnUnexpectedResponse() async throws {
        let peer = try ScriptedPeer(status: "200 OK", headers: ["Content-Type: application/json"], body: #"{"hello": "world"}"#)
        let glimpse = try GlimpseClient(serverURL: "http://127.0.0.1:\(peer.port)", configuration: .init(retries: 0))
        do {
            _ = try await glimpse.landmark(id: "food/apricot")
            Issue.record("a foreign body was accepted as an entity")
        } catch {
            guard case .unexpectedResponse(let status, _) = error else { Issue.record("\(error)"); return }
            #expect(status == 200)
        }
    }

    @Test func anAnswerOverTheSizeCapIsRefusedNotBuffered() async throws {
        let png = [UInt8](repeating: 0x42, count: 200_000)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(png.count)\r\nConnection: close\r\n\r\n"
        let peer = try ScriptedPeer(response: Array(head.utf8) + png)
        let glimpse = try GlimpseClient(serverURL: "http://127.0.0.1:\(peer.port)",
                                        configuration: .init(retries: 0, maximumResponseBytes: 100_000))
        do {
            _ = try await glimpse.export(.landmark, id: "food/apricot", as: .png)
            Issue.record("an answer over the cap was read")
        } catch {
            guard case .unexpectedResponse(200, let detail) = error else { Issue.record("\(error)"); return }
            #expect(detail.contains("200000 bytes") && detail.contains("100000"), "\(detail)")
        }
    }

    @Test func aRetryAfterLongerThanTheLongestWaitEndsTheRetriesAtOnce() async throws {
        let peer = try ScriptedPeer(status: "503 Service Unavailable", headers: ["Content-Type: application/json", "Retry-After: 3600"],
                                    body: #"{"error":"not_ready","message":"the search index is still loading; retry shortly"}"#)
        let glimpse = try GlimpseClient(serverURL: "http://127.0.0.1:\(peer.port)",
                                        configuration: .init(retries: 5, maximumRetryDelay: .seconds(2)))
        await expectRefusal(503, "not_ready", retryAfter: 3600) { _ = try await glimpse.ready() }
        #expect(peer.requests == 1)
    }

    @Test func aBusyAnswerWithoutRetryAfterIsRetriedWithBackoffAndAdminChangesNeverAre() async throws {
        let peer = try ScriptedPeer(status: "429 Too Many Requests", headers: ["Content-Type: application/json"],
                                    body: #"{"error":"too_many_requests","message":"8 searches are already running"}"#)
        let glimpse = try GlimpseClient(serverURL: "http://127.0.0.1:\(peer.port)",
                                        configuration: .init(retries: 2, adminToken: "s3cret-token-for-client-tests"))
        await expectRefusal(429, "too_many_requests") { _ = try await glimpse.search(image: Data([1, 2, 3])) }
        #expect(peer.requests == 3)  // the first attempt and two retries (0.25 s, then 0.5 s)
        await expectRefusal(429, "too_many_requests") { _ = try await glimpse.remove(.landmark, id: "food/apricot") }
        #expect(peer.requests == 4)  // a removal is sent once
    }
}
