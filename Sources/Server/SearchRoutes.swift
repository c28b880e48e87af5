import Catalog
import Fingerprints
import Foundation
import GlimpseAPITypes
import Hummingbird
import Logging
import PixelBuffers
import Search

/// `POST /v1/search` (image bytes: a plain route, see ``GlimpseAPIHandler``); the generated
/// operations `GET /v1/search?page_token=…` (the next page, no re-upload) and
/// `POST /v1/search/fingerprint` (hash lookup) are in the extension below. Every answer is the
/// spec's `ResultPage`, built from the ``QueryResultRecord`` that `glimpse query --json` prints.
struct SearchRoutes {
    let state: ServerState

    func add(to router: Router<GlimpseRequestContext>) {
        router.post("/v1/search") { request, context in try await search(request, context) }
    }

    /// The first page for an uploaded image (any format ``ImageDecoder`` recognises by its bytes).
    func search(_ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        let started = ContinuousClock.now
        let parameters = try SearchRequest(request, defaultDeadlineMilliseconds: state.configuration.defaultDeadlineMilliseconds)
        guard let index = state.holder.index else { throw APIError.notReady }
        // The body is read before a search slot is taken: a slow upload holds no slot.
        let tracing = state.configuration.tracing
        let lease = try await tracing.stage("body receive") {
            try await RequestBody.collect(request, limit: state.configuration.maxBodyBytes, policy: state.configuration.upload, budget: state.bodyBudget,
                                      watchdog: state.bodyWatchdog)
        }
        defer { lease.release() }
        // A browser form's upload carries the image as one part of a multipart body.
        let body = try MultipartImage.boundary(contentType: request.headers[.contentType])
            .map { boundary throws(APIError) in try MultipartImage.image(in: lease.bytes, boundary: boundary) } ?? lease.bytes
        // The deadline counts from here: decoding, fingerprinting and the scan share it.
        let bodyArrived = ContinuousClock.now
        return try await state.slots.withSlot {
            let maxPixels = state.configuration.maxPixels, region = parameters.region
            // Decoding and fingerprinting run on threads of their own, never on the ones that
            // answer /healthz and entity reads. A whole image may be an exact copy of a catalog
            // image (found whatever its detail), hence its CopyKey.
            // One span: the fingerprint is computed from the rows as they are decoded.
            let decoded = try await tracing.stage("decode and fingerprint") { try await state.decodeWorkers.run { () -> Result<(Fingerprint, CopyKey?), DecodeError> in
                body.withUnsafeReadableBytes { bytes in
                    Result { () throws(DecodeError) -> (Fingerprint, CopyKey?) in
                        let fingerprint = try ImageFingerprinter(layout: .query, maxPixels: maxPixels)
                            .fingerprint(decoding: bytes, source: "request body", region: region)
                        let key = region == nil
                            ? CopyKey(bytes: bytes, queryFingerprint: fingerprint, catalogFingerprinter: ImageFingerprinter(layout: .catalog, maxPixels: maxPixels))
                            : nil
                        return (fingerprint, key)
                    }
                }
            } }
            let fingerprint: Fingerprint, copyKey: CopyKey?
            switch decoded {
            case .success(let value): (fingerprint, copyKey) = value
            case .failure(let error): throw Self.apiError(error)
            }
            let profile = ServedIndex.visualProfile | (parameters.exact ? ServedIndex.exhaustiveFlag : 0)
            // What decoding left of the deadline goes to the scan; none left: a partial page.
            let remaining = max(.zero, parameters.deadline - (ContinuousClock.now - bodyArrived))
            let page = try await Self.page(for: fingerprint, labels: parameters.labels, copyKey: copyKey, profile: profile, pageSize: parameters.pageSize,
                                           minimumScore: parameters.minimumScore, token: nil, deadline: remaining, index: index, started: started, state: state)
            return context.json(page, for: request)
        }
    }

    /// One page of results for `fingerprint`, and the token of the next one.
    static func page(for fingerprint: Fingerprint, labels: [String], copyKey: CopyKey?, profile: UInt8, pageSize: Int, minimumScore: Double?, token: PageToken?,
                     deadline: Duration, index: ServedIndex, started: ContinuousClock.Instant, state: ServerState) async throws(APIError) -> Components.Schemas.ResultPage {
        guard let query = index.query(profile: profile) else {
            throw APIError.badRequest("invalid_page_token", "page token names an unknown scoring profile")
        }
        let page: ResultPage<VisualSearchResult>
        do {
            page = try await query.values(for: fingerprint, labels: labels, copyKey: copyKey,
                                          page: PageRequest(size: pageSize, token: token, deadline: deadline, minimumScore: minimumScore))
        } catch { throw Self.apiError(error) }
        if page.queryIsSearchable { state.metrics.recordSearchRanking(reused: page.stageTimes.indexSearch == nil) }
        let tracing = state.configuration.tracing
        tracing.record("index search", ran: page.stageTimes.indexSearch)
        tracing.record("ranking", ran: page.stageTimes.ranking)
        tracing.record("entity reads", ran: page.stageTimes.entityReads)
        if let overhead = page.stageTimes.fanOutOverhead {
            // benchmarks/partitions.sh reads these (with --log-level debug).
            state.logger.debug("fan-out", metadata: ["overhead_us": "\(overhead.components.seconds * 1_000_000 + overhead.components.attoseconds / 1_000_000_000_000)"])
        }
        let next = page.nextPageToken.map {
            SearchContinuation(fingerprint: fingerprint, labels: labels, profile: profile, pageSize: pageSize, pageToken: $0, copyKey: copyKey,
                               minimumScore: minimumScore)
                .text(signedWith: page.catalogVersion.tokenKey)
        }
        return Components.Schemas.ResultPage(QueryResultRecord(query: nil, page: page, elapsed: ContinuousClock.now - started, nextPageToken: next))
    }

    /// The HTTP error of a decode failure: 415 not an image / unsupported, 422 corrupt,
    /// truncated or over the pixel cap, 400 a region that does not fit the image.
    static func apiError(_ error: DecodeError) -> APIError {
        switch error {
        case .unrecognisedFormat, .unsupported:
            APIError(.unsupportedMediaType, "unsupported_image", error.description)
        case .emptyFile:
            APIError(.unprocessableContent, "empty_image", "the request body is empty: send the image bytes")
        case .corruptData, .truncated, .unreadableFile:
            APIError(.unprocessableContent, "corrupt_image", error.description)
        case .tooLarge:
            APIError(.unprocessableContent, "image_too_large", error.description)
        case .extremeAspectRatio:
            APIError(.unprocessableContent, "image_too_thin", error.description)
        case .regionOutside, .emptyRegion, .invalidOptions:
            APIError(.badRequest, "invalid_region", error.description)
        case .outOfMemory:
            APIError(.serviceUnavailable, "out_of_memory", error.description, headers: [.retryAfter: "1"])
        }
    }

    /// The HTTP error of a refused search: 410 for a token of an older catalog version
    /// (its ranking cannot be recomputed), 400 for any other refused token or page size,
    /// 503 when the store failed, 500 `index_damaged` for a damaged index (the server builds
    /// its index in memory, so only a mapped snapshot could be).
    static func apiError(_ error: VisualSearchError) -> APIError {
        switch error {
        case .pageToken(let tokenError): apiError(tokenError)
        case .invalidPageSize: APIError.badRequest("invalid_parameter", error.description)
        case .store(let storeError): APIError.store(storeError)
        case .damagedIndex: APIError(.internalServerError, "index_damaged", error.description)
        }
    }

    /// 410 `page_token_expired` for a changed catalog, 400 `invalid_page_token` otherwise.
    static func apiError(_ error: PageTokenError) -> APIError {
        if case .catalogChanged = error { return APIError(.gone, "page_token_expired", error.description) }
        return APIError.badRequest("invalid_page_token", error.description)
    }
}

extension GlimpseAPIHandler {
    /// `GET /v1/search?page_token=…`: the page a ``SearchContinuation`` token names,
    /// recomputing the ranking from the fingerprint it carries when this replica has not cached it.
    func nextPage(_ input: Operations.NextPage.Input) async throws -> Operations.NextPage.Output {
        let started = ContinuousClock.now
        let deadline = try SearchRequest.deadline(milliseconds: input.query.deadlineMs, defaultDeadlineMilliseconds: state.configuration.defaultDeadlineMilliseconds)
        guard let index = state.holder.index else { throw APIError.notReady }
        let continuation: SearchContinuation
        do { continuation = try SearchContinuation(text: input.query.pageToken, version: index.prepared.version) } catch { throw SearchRoutes.apiError(error) }
        guard SearchRequest.pageSizes.contains(continuation.pageSize) else {
            throw APIError.badRequest("invalid_page_token", "page token names an invalid page size")
        }
        let page = try await state.slots.withSlot {
            try await SearchRoutes.page(for: continuation.fingerprint, labels: continuation.labels, copyKey: continuation.copyKey, profile: continuation.profile,
                                        pageSize: continuation.pageSize, minimumScore: continuation.minimumScore, token: continuation.pageToken,
                                        deadline: deadline, index: index, started: started, state: state)
        }
        return .ok(.init(body: .json(page)))
    }

    /// `POST /v1/search/fingerprint`: the first page for a fingerprint computed by the client
    /// (its body read under ``OperationRegistrar/jsonBodyLimits`` by ``JSONBodyMiddleware``).
    func searchFingerprint(_ input: Operations.SearchFingerprint.Input) async throws -> Operations.SearchFingerprint.Output {
        let started = ContinuousClock.now
        let query = input.query
        let parameters = try SearchRequest(labels: query.labels, pageSize: query.pageSize, deadlineMilliseconds: query.deadlineMs, exact: query.exact,
                                           minimumScore: query.minScore, defaultDeadlineMilliseconds: state.configuration.defaultDeadlineMilliseconds)
        guard case .json(let body) = input.body else { throw APIError.badRequest("invalid_body", "the body must be JSON") }
        let lookup = try FingerprintLookup(body)
        guard let index = state.holder.index else { throw APIError.notReady }
        let page = try await state.slots.withSlot {
            try await SearchRoutes.page(for: lookup.fingerprint, labels: parameters.labels, copyKey: nil,
                                        profile: lookup.profile | (parameters.exact ? ServedIndex.exhaustiveFlag : 0), pageSize: parameters.pageSize,
                                        minimumScore: parameters.minimumScore, token: nil, deadline: parameters.deadline, index: index, started: started, state: state)
        }
        return .ok(.init(body: .json(page)))
    }

    /// Never called: `POST /v1/search` is a plain route (``SearchRoutes/search(_:_:)``).
    func searchImage(_ input: Operations.SearchImage.Input) async throws -> Operations.SearchImage.Output {
        throw Self.servedByPlainRoute("POST /v1/search")
    }
}
