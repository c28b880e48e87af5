import Foundation
import GlimpseAPITypes
import GlimpseClient
import GlimpseProcessTesting
import Testing

/// GlimpseClient against a real `glimpse serve` process on the indexed sample catalog: every
/// operation round-trips, refusals arrive as typed errors with the server's code.
@Suite struct GlimpseClientTests {
    /// The sample catalog indexed once per test run, shared read-only.
    static let sampleCatalog = Task<String, any Error> {
        let db = try GlimpseExecutable.scratchFolder("client") + "/catalog.sqlite"
        _ = try GlimpseExecutable.run(["index", GlimpseExecutable.testdata("catalog/manifest.json"), "--db", db])
        return db
    }

    /// A body may pause 120 s rather than 10: in the full parallel test run on 2 loaded cores
    /// a debug server once read none of the client's upload within 10 s and answered 408.
    /// The 408 itself is tested where it is the point (the busy-server test below, ServerTests).
    static let patientUploads = ["--body-stall-seconds", "120"]

    /// The sample screenshot and the region of it that shows Hurricane Ridge.
    static let screenshot = GlimpseExecutable.testdata("samples/screenshot-hurricane-ridge.png")

    static func image(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func aRegionSearchFindsItsLandmarkAndTheNextPageContinuesIt() async throws {
        let server = try await ServedGlimpse(catalog: try await Self.sampleCatalog.value, extra: Self.patientUploads)
        defer { server.stop() }
        let glimpse = try GlimpseClient(serverURL: server.baseURL)
        let first = try await glimpse.search(image: try Self.image(Self.screenshot),
                                             region: .pixels(x: 4, y: 211, width: 712, height: 332), pageSize: 1)
        #expect(first.results.map(\.id) == ["landmarks/hurricane-ridge"])
        #expect(first.results[0].kind == .landmark && first.results[0].score > 0.4)
        let token = try #require(first.nextPageToken.optional)
        let second = try await glimpse.nextPage(token: token)
        #expect(!second.results.isEmpty && second.results[0].id != "landmarks/hurricane-ridge")
        // The same region as fractions of the 720×1480 screenshot finds the same landmark.
        let region = SearchRegion.fraction(x: 4.0 / 720, y: 211.0 / 1480, width: 712.0 / 720, height: 332.0 / 1480)
        let image = try Self.image(Self.screenshot)
        let fraction = try await glimpse.search(image: image, region: region, labels: ["mountain"], pageSize: 3,
                                                deadline: .seconds(5), exact: true, minimumScore: 0.3)
        #expect(fraction.results.first?.id == "landmarks/hurricane-ridge", "\(fraction)")
    }

    @Test func aFingerprintSearchFindsTheCatalogImageItWasComputedFrom() async throws {
        let server = try await ServedGlimpse(catalog: try await Self.sampleCatalog.value, extra: Self.patientUploads)
        defer { server.stop() }
        let line = try GlimpseExecutable.run(["hash", "--format", "json", GlimpseExecutable.testdata("catalog/food/apricot.jpg")])
        let hash = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let pdq = try #require(hash?["pdq"] as? String)
        let glimpse = try GlimpseClient(serverURL: server.baseURL)
        let page = try await glimpse.search(fingerprint: FingerprintLookup(pdq: pdq), pageSize: 5)
        #expect(page.results.first?.id == "food/apricot")
        #expect(page.results.first?.score ?? 0 > 0.9)
    }

    @Test func entitiesAreReadByIdsWithSlashesInTheOrderAsked() async throws {
        let server = try await ServedGlimpse(catalog: try await Self.sampleCatalog.value, extra: Self.patientUploads)
        defer { server.stop() }
        let glimpse = try GlimpseClient(serverURL: server.baseURL)
        let apricot = try await glimpse.landmark(id: "food/apricot", imageStatistics: true)
        #expect(apricot.title == "Apricot" && apricot.kind == .landmark)
        #expect(apricot.collections?.map(\.id) == ["food"])
        #expect(apricot.imageStatistics?.images?.count == 1)
        let food = try await glimpse.collection(id: "food")
        #expect(food.kind == .collection && food.landmarks?.contains { $0.id == "food/apricot" } == true)
        let some = try await glimpse.entities(ids: ["food/cherries", "no/such-landmark", "food", "glimpse://landmark/food%2Fapricot"])
        #expect(some.map(\.id) == ["food/cherries", "food", "food/apricot"])
    }

    @Test func aThumbnailIsNotSentAgainForItsOwnETagAndExportsComeInEachFormat() async throws {
        let server = try await ServedGlimpse(catalog: try await Self.sampleCatalog.value, extra: Self.patientUploads)
        defer { server.stop() }
        let glimpse = try GlimpseClient(serverURL: server.baseURL)
        guard case .image(let png, let etag) = try await glimpse.thumbnail(of: .landmark, id: "food/apricot") else {
            Issue.record("no thumbnail image")
            return
        }
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let tag = try #require(etag)
        let again = try await glimpse.thumbnail(of: .landmark, id: "food/apricot", ifNoneMatch: tag)
        #expect(again == .notModified(etag: tag), "\(again)")
        guard case .image(let collectionPNG, _) = try await glimpse.thumbnail(of: .collection, id: "food") else {
            Issue.record("no collection thumbnail")
            return
        }
        #expect(collectionPNG.starts(with: [0x89, 0x50, 0x4E, 0x47]))

        guard case .json(let entity) = try await glimpse.export(.landmark, id: "food/apricot", as: .json) else {
            Issue.record("the JSON export is not JSON")
            return
        }
        #expect(entity.id == "food/apricot")
        guard case .text(let text) = try await glimpse.export(.collection, id: "food", as: .text) else {
            Issue.record("the text export is not text")
            return
        }
        #expect(text.contains("Apricot"))
        guard case .png(let image) = try await glimpse.export(.landmark, id: "food/apricot", as: .png) else {
            Issue.record("the PNG export is not PNG")
            return
        }
        #expect(image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func theServersRefusalsArriveAsTypedErrorsWithTheirCode() async throws {
        let server = try await ServedGlimpse(catalog: try await Self.sampleCatalog.value, extra: Self.patientUploads)
        defer { server.stop() }
        let glimpse = try GlimpseClient(serverURL: server.baseURL)
        await expectRefusal(404, "not_found") { _ = try await glimpse.landmark(id: "no/such-landmark") }
        await expectRefusal(400, "invalid_page_token") { _ = try await glimpse.nextPage(token: "AAAA") }
        await expectRefusal(415, "unsupported_image") { _ = try await glimpse.search(image: Data("not an image".utf8)) }
        await expectRefusal(400, "invalid_region") {
            _ = try await glimpse.search(image: try Self.image(Self.screenshot), region: .pixels(x: 5000, y: 0, width: 10, height: 10))
        }
        // Admin endpoints exist only with --admin-token-file.
        await expectRefusal(403, "admin_disabled") { _ = try await glimpse.undo() }
    }

    @Test func removeAndUndoChangeTheCatalogWithTheAdminTokenOnly() async throws {
        let folder = try GlimpseExecutable.scratchFolder("client-admin")
        let db = folder + "/catalog.sqlite"
        _ = try GlimpseExecutable.run(["index", GlimpseExecutable.testdata("catalog/manifest.json"), "--db", db])
        let tokenFile = folder + "/admin-token"
        try Data("s3cret-token-for-client-tests".utf8).write(to: URL(fileURLWithPath: tokenFile))
        let server = try await ServedGlimpse(catalog: db, extra: ["--admin-token-file", tokenFile, "--reload-poll-ms", "50"] + Self.patientUploads)
        defer { server.stop() }
        let anonymous = try GlimpseClient(serverURL: server.baseURL)
        await expectRefusal(401, "unauthorized") { _ = try await anonymous.remove(.landmark, id: "food/apricot") }
        let forged = try GlimpseClient(serverURL: server.baseURL, configuration: .init(adminToken: "forged"))
        await expectRefusal(403, "forbidden") { _ = try await forged.remove(.landmark, id: "food/apricot") }

        let admin = try GlimpseClient(serverURL: server.baseURL, configuration: .init(adminToken: "s3cret-token-for-client-tests"))
        let removal = try #require(try await admin.remove(.landmark, id: "food/apricot", mode: .archive))
        #expect(removal.entities == ["glimpse://landmark/food%2Fapricot"] && removal.reason == .archived && !removal.undone, "\(removal)")
        await expectRefusal(404, "not_found") { _ = try await admin.landmark(id: "food/apricot") }
        let undone = try #require(try await admin.undo())
        #expect(undone.id == removal.id && undone.undone)
        #expect(try await admin.landmark(id: "food/apricot").title == "Apricot")
    }

    @Test func aBusyServerIsAskedAgainAfterItsRetryAfter() async throws {
        // A body budget of 1,000,000 bytes, 900,000 of them reserved by an upload that declared
        // its length and sends nothing: the client's 336,904-byte search is refused with 429
        // uploads_busy (Retry-After: 1) until that upload's connection closes.
        let server = try await ServedGlimpse(catalog: try await Self.sampleCatalog.value,
                                             extra: ["--max-buffered-body-bytes", "1000000", "--max-body-bytes", "1000000", "--body-stall-seconds", "30"])
        defer { server.stop() }
        let stalled = try RawConnection(port: server.port)
        stalled.send("POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 900000\r\n\r\n")
        var held = false, polls = 0
        while !held, polls < 300 {
            held = try await server.metric("glimpse_request_body_bytes_held ") >= 900_000
            if !held { try await Task.sleep(for: .milliseconds(50)) }
            polls += 1
        }
        #expect(held, "the stalled upload never reserved its bytes")

        let impatient = try GlimpseClient(serverURL: server.baseURL, configuration: .init(retries: 0))
        await expectRefusal(429, "uploads_busy", retryAfter: 1) { _ = try await impatient.search(image: try Self.image(Self.screenshot)) }

        let patient = try GlimpseClient(serverURL: server.baseURL, configuration: .init(retries: 3))
        let search = Task {
            try await patient.search(image: try Self.image(Self.screenshot), region: .pixels(x: 4, y: 211, width: 712, height: 332), pageSize: 1)
        }
        // Release the budget once the patient client has been refused (the second uploads_busy).
        let busy = #"glimpse_rejected_requests_total{reason="uploads_busy"}"#
        polls = 0
        while try await server.metric(busy) < 2, polls < 400 {
            try await Task.sleep(for: .milliseconds(25))
            polls += 1
        }
        #expect(polls < 400, "the patient client was never refused")
        stalled.close()
        let page = try await search.value
        #expect(page.results.first?.id == "landmarks/hurricane-ridge")
    }

    @Test func aServerThatNeverAnswersTimesOutAndAClosedPortIsATransportError() async throws {
        let listener = try SilentListener()
        let silent = try GlimpseClient(serverURL: "http://127.0.0.1:\(listener.port)",
                                       configuration: .init(requestTimeout: .milliseconds(300), retries: 0))
        // (No wall-clock bound: under a full parallel test run the answer can wait on a busy pool.)
        await #expect(throws: GlimpseClientError.timedOut(operation: "health")) { _ = try await silent.health() }
        let port = listener.port
        listener.close()
        // async-http-client retries a refused connection until the request's time-out ends.
        let closed = try GlimpseClient(serverURL: "http://127.0.0.1:\(port)", configuration: .init(requestTimeout: .seconds(1), retries: 0))
        do {
            _ = try await closed.ready()
            Issue.record("a closed port answered")
        } catch {
            guard case .transport(let operation, _) = error else { Issue.record("not a transport error: \(error)"); return }
            #expect(operation == "ready")
        }
    }

    @Test func argumentsTheServerWouldRefuseAreRefusedBeforeSending() async throws {
        #expect(throws: GlimpseClientError.self) { _ = try GlimpseClient(serverURL: "ftp://example.org") }
        #expect(throws: GlimpseClientError.self) { _ = try GlimpseClient(serverURL: "not a url") }
        // Nothing listens on this port: an argument error proves nothing was sent.
        let glimpse = try GlimpseClient(serverURL: "http://127.0.0.1:9", configuration: .init(retries: 0))
        let image = Data([0x89, 0x50])
        for attempt in [
            { _ = try await glimpse.search(image: Data()) },
            { _ = try await glimpse.search(image: image, pageSize: 0) },
            { _ = try await glimpse.search(image: image, deadline: .seconds(61)) },
            { _ = try await glimpse.search(image: image, minimumScore: 1.5) },
            { _ = try await glimpse.search(image: image, labels: ["a,b"]) },
            { _ = try await glimpse.search(image: image, region: .pixels(x: 0, y: 0, width: 0, height: 5)) },
            { _ = try await glimpse.search(image: image, region: .fraction(x: 0, y: 0, width: 2, height: 1)) },
            { _ = try await glimpse.landmark(id: "") },
            { _ = try await glimpse.entities(ids: []) },
        ] as [@Sendable () async throws -> Void] {
            do {
                try await attempt()
                Issue.record("an invalid argument was accepted")
            } catch {
                guard case .invalidArgument? = error as? GlimpseClientError else {
                    Issue.record("not refused before sending: \(error)")
                    continue
                }
            }
        }
    }

    @Test func healthAndReadinessReportTheCatalogServed() async throws {
        let server = try await ServedGlimpse(catalog: try await Self.sampleCatalog.value, extra: Self.patientUploads)
        defer { server.stop() }
        let glimpse = try GlimpseClient(serverURL: server.baseURL)
        #expect(try await glimpse.health().status == .ok)
        let ready = try await glimpse.ready()
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: GlimpseExecutable.testdata("catalog/manifest.json")))) as? [String: Any]
        let landmarks = (manifest?["landmarks"] as? [Any])?.count
        #expect(ready.status == .ready && ready.landmarks == landmarks && (ready.views ?? 0) > 0)
    }
}

/// Expects `body` to fail with the server's refusal `status` / `code` (and `Retry-After`).
func expectRefusal(_ status: Int, _ code: String, retryAfter: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                   _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("expected \(status) \(code), the call succeeded", sourceLocation: sourceLocation)
    } catch let error as GlimpseClientError {
        guard case .server(let got, let gotCode, let message, let gotRetry) = error else {
            Issue.record("expected \(status) \(code), got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(got == status && gotCode == code && !message.isEmpty, "\(error)", sourceLocation: sourceLocation)
        if let retryAfter { #expect(gotRetry == retryAfter, sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected a GlimpseClientError, got \(error)", sourceLocation: sourceLocation)
    }
}
