import Foundation
import GlimpseProcessTesting
@testable import Server
import Testing

/// What HTTP itself asks of the server, checked on raw connections (an HTTP client library
/// would add or fix what is tested here): `HEAD` wherever `GET` works, 405 with `Allow` for
/// a method a known path does not take, and exactly one acceptable `Host`.
@Suite struct HTTPConformanceTests {
    /// One request on a fresh connection that the server closes after answering.
    static func exchange(_ port: Int, _ head: String) async throws -> (status: Int, text: String) {
        let connection = try RawConnection(port: port)
        connection.send(head + "Connection: close\r\n\r\n")
        return await connection.response()
    }

    static func header(_ name: String, in text: String) -> String? {
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        return head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    static func body(of text: String) -> String {
        text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
    }

    @Test func headAnswersWhereverGetDoesWithTheSameHeadersAndNoBody() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        for path in ["/healthz", "/readyz", "/v1/landmarks/food%2Fapricot", "/v1/landmarks/food%2Fapricot/thumbnail", "/"] {
            let get = try await Self.exchange(server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            let head = try await Self.exchange(server.port, "HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            #expect(get.status == 200 && head.status == 200, "\(path): GET \(get.status), HEAD \(head.status)")
            #expect(Self.header("Content-Type", in: head.text) == Self.header("Content-Type", in: get.text), "\(path)")
            #expect(Self.body(of: head.text).isEmpty, "\(path): HEAD sent a body")
        }
    }

    @Test func aMethodAKnownPathDoesNotTakeIs405WithAllow() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value)
        defer { Task { await server.stop() } }
        let cases: [(String, String, String)] = [
            ("DELETE", "/v1/search", "GET, HEAD, POST"),
            ("PUT", "/healthz", "GET, HEAD"),
            ("GET", "/v1/admin/undo", "POST"),
            ("POST", "/v1/landmarks/food%2Fapricot", "GET, HEAD"),
        ]
        for (method, path, allow) in cases {
            let answer = try await Self.exchange(server.port, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n")
            #expect(answer.status == 405, "\(method) \(path): \(answer.status)")
            #expect(Self.header("Allow", in: answer.text) == allow, "\(method) \(path)")
            #expect(Self.body(of: answer.text).contains(#""error":"method_not_allowed""#))
        }
        let unknown = try await Self.exchange(server.port, "GET /v1/nothing-here HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(unknown.status == 404 && Self.body(of: unknown.text).contains(#""error":"not_found""#))
    }

    @Test func aRequestNeedsExactlyOneHostThatTheServerAccepts() async throws {
        let server = try await Harness.start(catalog: try await Harness.sharedCatalog.value) { $0.allowedHosts = ["glimpse.internal"] }
        defer { Task { await server.stop() } }
        let missing = try await Self.exchange(server.port, "GET /healthz HTTP/1.1\r\n")
        #expect(missing.status == 400 && Self.body(of: missing.text).contains(#""error":"missing_host""#), "\(missing.text)")
        let twice = try await Self.exchange(server.port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n")
        #expect(twice.status == 400 && Self.body(of: twice.text).contains(#""error":"duplicate_host""#), "\(twice.text)")
        // A page on another site whose name was rebound to 127.0.0.1 must not read entities.
        let rebound = try await Self.exchange(server.port, "GET /v1/landmarks/food%2Fapricot HTTP/1.1\r\nHost: attacker.example:\(server.port)\r\n")
        #expect(rebound.status == 421 && Self.body(of: rebound.text).contains(#""error":"host_not_allowed""#), "\(rebound.text)")
        for host in ["127.0.0.1:\(server.port)", "localhost", "[::1]:\(server.port)", "GLIMPSE.internal:8080"] {
            let answer = try await Self.exchange(server.port, "GET /healthz HTTP/1.1\r\nHost: \(host)\r\n")
            #expect(answer.status == 200, "Host: \(host) → \(answer.status)")
        }
    }

    @Test func theHostPolicyFollowsTheBoundAddress() {
        #expect(HostPolicy(boundHost: "0.0.0.0", extra: []).accepts("anything.example"))
        #expect(!HostPolicy(boundHost: "0.0.0.0", extra: ["search.example"]).accepts("anything.example"))
        #expect(HostPolicy(boundHost: "0.0.0.0", extra: ["search.example"]).accepts("search.example:443"))
        #expect(!HostPolicy(boundHost: "127.0.0.1", extra: []).accepts("attacker.example"))
        #expect(HostPolicy(boundHost: "127.0.0.1", extra: []).accepts("localhost:8080"))
    }
}
