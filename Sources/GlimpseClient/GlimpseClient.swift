import AsyncHTTPClient
import Foundation
import GlimpseAPITypes
import HTTPTypes
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// A typed client of `glimpse serve`: one method per operation of the HTTP API (`openapi.yaml`),
/// built on the client generated from that spec and sent with async-http-client.
///
/// Every method throws only ``GlimpseClientError``: the server's refusals with their stable
/// error code, time-outs, transport failures and answers the API does not describe. Searches
/// and reads that the server refuses with 429 or 503 are retried after its `Retry-After`
/// (``GlimpseClientConfiguration``).
///
/// ```swift
/// let glimpse = try GlimpseClient(serverURL: "http://127.0.0.1:8080")
/// let page = try await glimpse.search(image: screenshot, region: .pixels(x: 40, y: 60, width: 300, height: 200))
/// for result in page.results { print(result.score, result.title) }
/// ```
public struct GlimpseClient: Sendable {
    /// The generated client (an `APIProtocol`), with this client's middlewares.
    private let api: Client
    /// The settings this client was made with.
    public let configuration: GlimpseClientConfiguration

    /// A client of the server at `serverURL` (for example `http://127.0.0.1:8080`).
    /// - Parameters:
    ///   - serverURL: the server's base URL: `http` or `https`, host, port.
    ///   - configuration: time-outs, retries, admin token.
    ///   - httpClient: the async-http-client to send with; default its shared client.
    /// - Throws: ``GlimpseClientError/invalidArgument(detail:)`` when `serverURL` is not an
    ///   http(s) URL with a host.
    /// - Complexity: O(1).
    public init(serverURL: String, configuration: GlimpseClientConfiguration = .init(),
                httpClient: HTTPClient = .shared) throws(GlimpseClientError) {
        guard let url = URL(string: serverURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil
        else {
            throw .invalidArgument(detail: "server URL '\(serverURL)' is not an http:// or https:// URL with a host")
        }
        let timeout = TimeAmount.milliseconds(max(1, Self.wholeMilliseconds(configuration.requestTimeout)))
        let transport = AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: timeout))
        self.configuration = configuration
        self.api = Client(serverURL: url, transport: transport,
                          middlewares: [AdminTokenMiddleware(token: configuration.adminToken), ETagHeaderMiddleware(),
                                        RetryMiddleware(configuration: configuration), ServerErrorMiddleware()])
    }

    // MARK: Search

    /// Searches the catalog with an image file's bytes (any format the server decodes), or a
    /// region of it: `POST /v1/search`. Answers the first page.
    /// - Parameters:
    ///   - image: the image file's bytes (PNG, JPEG, WebP, HEIC, AVIF…).
    ///   - region: the part of the upright image to search; nil for all of it.
    ///   - labels: words describing the content (at most 32); landmarks with these keywords rank higher.
    ///   - pageSize: results per page, 1…1000; nil for the server's default (10).
    ///   - deadline: the server's time budget for decoding and scanning, 1 ms…60 s; nil for its default (500 ms).
    ///   - exact: scan every view even when the catalog has a first-stage index.
    ///   - minimumScore: lowest visual score (0…1) that counts as a match; nil for the calibrated default.
    /// - Returns: the first page; `nextPageToken` continues it with ``nextPage(token:deadline:)``.
    /// - Complexity: one request (more on 429/503) carrying `image.count` bytes.
    public func search(image: Data, region: SearchRegion? = nil, labels: [String] = [], pageSize: Int? = nil,
                       deadline: Duration? = nil, exact: Bool = false, minimumScore: Double? = nil)
        async throws(GlimpseClientError) -> ResultPage
    {
        guard !image.isEmpty else { throw .invalidArgument(detail: "the image is empty (0 bytes)") }
        var query = Operations.SearchImage.Input.Query(
            labels: try Self.labelsText(labels), pageSize: try Self.checkedPageSize(pageSize),
            deadlineMs: try Self.milliseconds(deadline), exact: exact ? true : nil, minScore: try Self.checkedScore(minimumScore))
        switch region {
        case .pixels?: query.region = try region?.parameterText()
        case .fraction?: query.regionFraction = try region?.parameterText()
        case nil: break
        }
        let input = Operations.SearchImage.Input(query: query, body: .binary(HTTPBody(image)))
        let output = try await call("searchImage") { try await api.searchImage(input) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value }
    }

    /// The next page of a search: `GET /v1/search?page_token=…`, without re-uploading.
    /// - Parameters:
    ///   - token: the previous page's `nextPageToken`.
    ///   - deadline: the server's time budget; nil for its default.
    /// - Throws: `.server` with code `invalid_page_token` (400) or `page_token_expired` (410: the
    ///   catalog changed; search again).
    /// - Complexity: one request.
    public func nextPage(token: String, deadline: Duration? = nil) async throws(GlimpseClientError) -> ResultPage {
        guard !token.isEmpty else { throw .invalidArgument(detail: "the page token is empty") }
        let input = Operations.NextPage.Input(query: .init(pageToken: token, deadlineMs: try Self.milliseconds(deadline)))
        let output = try await call("nextPage") { try await api.nextPage(input) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value }
    }

    /// Searches with codes computed on the device (`glimpse hash --format json`), no pixels
    /// uploaded: `POST /v1/search/fingerprint`.
    /// - Parameters:
    ///   - fingerprint: `pdq` alone (scored by PDQ distance) or with `phash`, `dhash` and
    ///     `histogram` (scored like an uploaded image's full frame).
    ///   - labels, pageSize, deadline, exact, minimumScore: as for ``search(image:region:labels:pageSize:deadline:exact:minimumScore:)``.
    /// - Complexity: one request.
    public func search(fingerprint: FingerprintLookup, labels: [String] = [], pageSize: Int? = nil, deadline: Duration? = nil,
                       exact: Bool = false, minimumScore: Double? = nil) async throws(GlimpseClientError) -> ResultPage
    {
        let query = Operations.SearchFingerprint.Input.Query(
            labels: try Self.labelsText(labels), pageSize: try Self.checkedPageSize(pageSize),
            deadlineMs: try Self.milliseconds(deadline), exact: exact ? true : nil, minScore: try Self.checkedScore(minimumScore))
        let input = Operations.SearchFingerprint.Input(query: query, body: .json(fingerprint))
        let output = try await call("searchFingerprint") { try await api.searchFingerprint(input) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value }
    }

    // MARK: Entities

    /// A landmark with its display representation and collections: `GET /v1/landmarks/{id}`.
    /// - Parameters:
    ///   - id: the landmark id (`food/apricot`); slashes are sent percent-encoded.
    ///   - imageStatistics: also compute the deferred `image_statistics`.
    /// - Throws: `.server` with code `not_found` (404) for an unknown or removed id.
    /// - Complexity: one request.
    public func landmark(id: String, imageStatistics: Bool = false) async throws(GlimpseClientError) -> Entity {
        let input = Operations.GetLandmark.Input(path: .init(id: try Self.checkedID(id)),
                                                 query: .init(with: imageStatistics ? "image-statistics" : nil))
        let output = try await call("getLandmark") { try await api.getLandmark(input) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value }
    }

    /// A collection with its display representation and landmarks: `GET /v1/collections/{id}`.
    /// - Throws: `.server` with code `not_found` (404) for an unknown or removed id.
    /// - Complexity: one request.
    public func collection(id: String) async throws(GlimpseClientError) -> Entity {
        let input = Operations.GetCollection.Input(path: .init(id: try Self.checkedID(id)))
        let output = try await call("getCollection") { try await api.getCollection(input) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value }
    }

    /// The live entities among `ids` (landmark or collection ids, or `glimpse://` URLs), in
    /// order; unknown ids are skipped: `GET /v1/entities`.
    /// - Parameter ids: 1…100 ids; none may contain a comma.
    /// - Complexity: one request.
    public func entities(ids: [String]) async throws(GlimpseClientError) -> [Entity] {
        guard (1...100).contains(ids.count) else { throw .invalidArgument(detail: "ids: \(ids.count) given, 1…100 allowed") }
        for id in ids where id.isEmpty || id.contains(",") {
            throw .invalidArgument(detail: "id '\(id)' is empty or contains a comma")
        }
        let input = Operations.GetEntities.Input(query: .init(ids: ids.joined(separator: ",")))
        let output = try await call("getEntities") { try await api.getEntities(input) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value.entities }
    }

    /// An entity's PNG thumbnail (at most 256 pixels), or ``Thumbnail/notModified(etag:)`` when
    /// `ifNoneMatch` is still current.
    /// - Parameters:
    ///   - kind: landmark or collection.
    ///   - id: the entity id.
    ///   - ifNoneMatch: the `etag` of a thumbnail the caller already holds.
    /// - Throws: `.server` with code `not_found` (404) or `no_thumbnail` / `thumbnail_failed` (422).
    /// - Complexity: one request; reads at most ``GlimpseClientConfiguration/maximumResponseBytes``.
    public func thumbnail(of kind: EntityKind, id: String, ifNoneMatch: String? = nil) async throws(GlimpseClientError) -> Thumbnail {
        let id = try Self.checkedID(id)
        switch kind {
        case .landmark:
            let input = Operations.GetLandmarkThumbnail.Input(path: .init(id: id), headers: .init(ifNoneMatch: ifNoneMatch))
            let output = try await call("getLandmarkThumbnail") { try await api.getLandmarkThumbnail(input) }
            switch output {
            case .ok(let answer):
                guard case .png(let png) = answer.body else { throw Self.unexpected(output) }
                return .image(png: try await collect(png, "getLandmarkThumbnail"), etag: answer.headers.eTag)
            case .notModified(let answer): return .notModified(etag: answer.headers.eTag)
            default: throw Self.unexpected(output)
            }
        case .collection:
            let input = Operations.GetCollectionThumbnail.Input(path: .init(id: id), headers: .init(ifNoneMatch: ifNoneMatch))
            let output = try await call("getCollectionThumbnail") { try await api.getCollectionThumbnail(input) }
            switch output {
            case .ok(let answer):
                guard case .png(let png) = answer.body else { throw Self.unexpected(output) }
                return .image(png: try await collect(png, "getCollectionThumbnail"), etag: answer.headers.eTag)
            case .notModified(let answer): return .notModified(etag: answer.headers.eTag)
            default: throw Self.unexpected(output)
            }
        }
    }

    /// An entity in one of its representations: `GET /v1/{kind}s/{id}/export?as=…`.
    /// - Parameters:
    ///   - kind: landmark or collection.
    ///   - id: the entity id.
    ///   - format: json (the entity), text (a plain-text description) or png (its image).
    /// - Complexity: one request; reads at most ``GlimpseClientConfiguration/maximumResponseBytes``.
    public func export(_ kind: EntityKind, id: String, as format: ExportFormat) async throws(GlimpseClientError) -> Export {
        let id = try Self.checkedID(id)
        let body: Components.Responses.Export.Body
        switch kind {
        case .landmark:
            let input = Operations.ExportLandmark.Input(path: .init(id: id), query: .init(_as: format.parameter))
            let output = try await call("exportLandmark") { try await api.exportLandmark(input) }
            guard case .ok(let answer) = output else { throw Self.unexpected(output) }
            body = answer.body
        case .collection:
            let input = Operations.ExportCollection.Input(path: .init(id: id), query: .init(_as: format.parameter))
            let output = try await call("exportCollection") { try await api.exportCollection(input) }
            guard case .ok(let answer) = output else { throw Self.unexpected(output) }
            body = answer.body
        }
        switch body {
        case .json(let entity): return .json(entity)
        case .plainText(let text): return .text(String(decoding: try await collect(text, "export"), as: UTF8.self))
        case .png(let png): return .png(try await collect(png, "export"))
        }
    }

    // MARK: Admin

    /// Archives or deletes an entity (soft: ``undo()`` restores it): `POST /v1/admin/remove`.
    /// Needs ``GlimpseClientConfiguration/adminToken``; never retried.
    /// - Throws: `.server` with code `unauthorized` (401), `forbidden` (403), `admin_disabled`
    ///   (403: the server has no admin token), `not_found` (404).
    /// - Complexity: one request.
    public func remove(_ kind: EntityKind, id: String, mode: RemovalMode = .archive) async throws(GlimpseClientError) -> Removal? {
        let request = Components.Schemas.RemoveRequest(id: try Self.checkedID(id), kind: kind.removeKind, mode: mode.payload)
        let output = try await call("removeEntity") { try await api.removeEntity(.init(body: .json(request))) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value.removal.optional }
    }

    /// Restores the most recent removal: `POST /v1/admin/undo`; nil when there was none.
    /// Needs ``GlimpseClientConfiguration/adminToken``; never retried.
    /// - Complexity: one request.
    public func undo() async throws(GlimpseClientError) -> Removal? {
        let output = try await call("undoRemoval") { try await api.undoRemoval(.init()) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value.removal.optional }
    }

    // MARK: Operations

    /// `GET /healthz`: the process answers.
    /// - Complexity: one request.
    public func health() async throws(GlimpseClientError) -> ServerStatus {
        let output = try await call("health") { try await api.health(.init()) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value }
    }

    /// `GET /readyz`: the index is loaded and the catalog answers, with the catalog version and
    /// index size. A server still loading is `.server` 503 `not_ready` once the retries are spent.
    /// - Complexity: one request (more while the server answers 503).
    public func ready() async throws(GlimpseClientError) -> ServerStatus {
        let output = try await call("ready") { try await api.ready(.init()) }
        guard case .ok(let answer) = output else { throw Self.unexpected(output) }
        switch answer.body { case .json(let value): return value }
    }

    // MARK: Plumbing

    /// Runs one generated-client call and maps whatever it throws to ``GlimpseClientError``.
    private func call<Output>(_ operation: String, _ body: () async throws -> Output) async throws(GlimpseClientError) -> Output {
        do {
            return try await body()
        } catch {
            throw Self.clientError(error, operation: operation)
        }
    }

    /// Reads a binary answer whole, up to ``GlimpseClientConfiguration/maximumResponseBytes``.
    private func collect(_ body: HTTPBody, _ operation: String) async throws(GlimpseClientError) -> Data {
        let limit = configuration.maximumResponseBytes
        if case .known(let length) = body.length, length > limit {
            throw .unexpectedResponse(status: 200, detail: "\(operation): an answer of \(length) bytes, over maximumResponseBytes (\(limit))")
        }
        do {
            return try await Data(collecting: body, upTo: limit)
        } catch {
            // The runtime's own error for a body over the limit is not public: a body of
            // unknown length that outgrows the cap arrives here.
            throw .unexpectedResponse(status: 200, detail: "\(operation): the answer could not be read within \(limit) bytes: \(error)")
        }
    }

    /// The typed error for what the generated client, a middleware or the transport threw.
    /// - Complexity: O(1).
    static func clientError(_ error: any Error, operation: String) -> GlimpseClientError {
        if let known = error as? GlimpseClientError { return known }
        let underlying = (error as? ClientError)?.underlyingError ?? error
        if let known = underlying as? GlimpseClientError { return known }
        if let http = underlying as? HTTPClientError {
            if http == .deadlineExceeded || http == .readTimeout || http == .connectTimeout || http == .writeTimeout {
                return .timedOut(operation: operation)
            }
            return .transport(operation: operation, detail: "\(http)")
        }
        if let client = error as? ClientError, let response = client.response {
            return .unexpectedResponse(status: response.status.code, detail: "\(operation): \(client.causeDescription)")
        }
        if let client = error as? ClientError {
            return .transport(operation: operation, detail: "\(client.causeDescription): \(underlying)")
        }
        return .transport(operation: operation, detail: "\(error)")
    }

    /// A success answer this client does not expect (an undocumented status).
    static func unexpected<Output>(_ output: Output) -> GlimpseClientError {
        .unexpectedResponse(status: 0, detail: "\(output)")
    }

    static func checkedID(_ id: String) throws(GlimpseClientError) -> String {
        guard !id.isEmpty else { throw .invalidArgument(detail: "the entity id is empty") }
        return id
    }

    static func checkedPageSize(_ size: Int?) throws(GlimpseClientError) -> Int? {
        guard let size else { return nil }
        guard (1...1000).contains(size) else { throw .invalidArgument(detail: "page size \(size) is not within 1…1000") }
        return size
    }

    static func checkedScore(_ score: Double?) throws(GlimpseClientError) -> Double? {
        guard let score else { return nil }
        guard score.isFinite, (0...1).contains(score) else { throw .invalidArgument(detail: "minimum score \(score) is not within 0…1") }
        return score
    }

    static func milliseconds(_ deadline: Duration?) throws(GlimpseClientError) -> Int? {
        guard let deadline else { return nil }
        let milliseconds = wholeMilliseconds(deadline)
        guard (1...60_000).contains(milliseconds) else {
            throw .invalidArgument(detail: "deadline \(deadline) is not within 1 ms…60 s")
        }
        return Int(milliseconds)
    }

    /// `duration` in whole milliseconds (rounded down).
    static func wholeMilliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    static func labelsText(_ labels: [String]) throws(GlimpseClientError) -> String? {
        guard !labels.isEmpty else { return nil }
        guard labels.count <= 32 else { throw .invalidArgument(detail: "\(labels.count) labels given, at most 32 allowed") }
        for label in labels where label.isEmpty || label.contains(",") {
            throw .invalidArgument(detail: "label '\(label)' is empty or contains a comma")
        }
        return labels.joined(separator: ",")
    }
}
