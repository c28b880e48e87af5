import Catalog
import Foundation
import Hummingbird
import Rendering
import Search
import Tracing

/// The entity endpoints: `GET /v1/{landmarks|collections}/{id}` (``EntityDocument``,
/// deferred properties only with `?with=…`), `GET /v1/entities?ids=a,b` (unknown ids
/// skipped), `…/{id}/thumbnail` (PNG with an ETag, 304 on `If-None-Match`) and
/// `…/{id}/export?as=json|text|png`.
///
/// Ids may contain slashes (`nature/hurricane-ridge`): clients percent-encode them into
/// one path segment (`nature%2Fhurricane-ridge`); the router matches the raw segment and
/// the id is decoded here.
struct EntityRoutes {
    let state: ServerState

    /// Most ids in one `GET /v1/entities`.
    static let maximumIDs = 100

    func add(to router: Router<GlimpseRequestContext>) {
        for kind in EntityKind.allCases {
            let base = "/v1/\(kind.rawValue)s/{id}"
            router.get(RouterPath(base)) { request, context in try await entity(kind, request, context) }
            router.get(RouterPath(base + "/thumbnail")) { request, context in try await thumbnail(kind, request, context) }
            router.get(RouterPath(base + "/export")) { request, context in try await export(kind, request, context) }
        }
        router.get("/v1/entities") { request, context in try await entities(request, context) }
    }

    /// The reference named by the `{id}` path segment (percent-decoded).
    ///
    /// - Throws: 400 when the segment is not valid percent-encoding.
    func reference(_ kind: EntityKind, _ context: GlimpseRequestContext) throws(APIError) -> EntityReference {
        guard let raw = context.parameters.get("id"), let id = raw.removingPercentEncoding, !id.isEmpty else {
            throw APIError.badRequest("invalid_id", "the entity id must be percent-encoded into one path segment")
        }
        return EntityReference(kind: kind, id: id)
    }

    func entity(_ kind: EntityKind, _ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        let reference = try reference(kind, context)
        var deferred: [EntityDetails.DeferredProperty] = []
        for name in (request.uri.queryParameters.get("with") ?? "").split(separator: ",") {
            guard let property = EntityDetails.DeferredProperty(rawValue: String(name)) else {
                let known = EntityDetails.DeferredProperty.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.badRequest("invalid_parameter", "with: unknown deferred property '\(name.prefix(40))' (known: \(known))")
            }
            deferred.append(property)
        }
        let reads = state.configuration.tracing.start("entity reads")
        defer { reads.end() }
        do {
            return context.json(try await EntityDetails.open(reference, in: state.store, with: deferred).document, for: request)
        } catch { throw Self.apiError(error) }
    }

    func entities(_ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        guard let list = request.uri.queryParameters.get("ids") else {
            throw APIError.badRequest("missing_parameter", "ids is required: comma-separated entity ids or glimpse:// URLs")
        }
        let items = list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard items.count <= Self.maximumIDs else {
            throw APIError.badRequest("invalid_parameter", "ids: at most \(Self.maximumIDs) ids per request; got \(items.count)")
        }
        // A bare id may name a landmark or a collection; a URL names one kind.
        let references = items.flatMap { item -> [EntityReference] in
            if let reference = try? EntityReference(url: item) { return [reference] }
            return EntityKind.allCases.map { EntityReference(kind: $0, id: item) }
        }
        let reads = state.configuration.tracing.start("entity reads")
        defer { reads.end() }
        do {
            let found = try await EntityResolver(store: state.store).entities(for: references)
            var documents: [EntityDocument] = []
            for entity in found {
                let related: [VisualSearchResult]
                switch entity {
                case .landmark(let landmark): related = try await state.store.collections(containing: landmark.id).map(VisualSearchResult.collection)
                case .collection(let collection): related = try await state.store.landmarks(ids: collection.landmarkIDs).map(VisualSearchResult.landmark)
                }
                documents.append(EntityDocument(entity: entity, related: related))
            }
            return context.json(EntityList(entities: documents), for: request)
        } catch let error as EntityResolutionError {
            throw Self.apiError(.resolution(error))
        } catch let error as CatalogStoreError {
            throw APIError.store(error)
        }
    }

    func thumbnail(_ kind: EntityKind, _ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        let reference = try reference(kind, context)
        let entity: VisualSearchResult
        do { entity = try await EntityResolver(store: state.store).entity(for: reference) } catch { throw Self.apiError(.resolution(error)) }
        guard let path = entity.displayRepresentation.thumbnailPath else {
            throw APIError(.notFound, "no_thumbnail", "\(reference.url) has no thumbnail image")
        }
        // The ETag names the source file's state and the rendering, so it changes when either does.
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let tag = "\"" + String(SipHash24(key: SIMD2(0x7468_756d_626e_6169, 0x6c20_6574_6167_2121))
            .hash(Array("\(path)|\(size)|\(modified)|\(state.thumbnailer.maxSide)".utf8)), radix: 16) + "\""
        let headers: HTTPFields = [.eTag: tag, .cacheControl: "public, max-age=300"]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: {
            let candidate = $0.trimmingCharacters(in: .whitespaces)
            return candidate == tag || candidate == "W/" + tag || candidate == "*"
        }) {
            return Response(status: .notModified, headers: headers)
        }
        // Rendered on threads of their own (a few at once, the rest waiting their turn), once
        // per picture: a render that waited finds what the one before it kept.
        let cache = state.thumbnails, thumbnailer = state.thumbnailer
        let rendered: Result<EncodedImage, ThumbnailError>
        if let kept = cache.image(for: tag) {
            rendered = .success(kept)
        } else {
            rendered = try await state.thumbnailWorkers.run {
                if let kept = cache.image(for: tag) { return .success(kept) }
                let result = Result { () throws(ThumbnailError) -> EncodedImage in try thumbnailer.pngThumbnail(file: path) }
                if case .success(let image) = result { cache.insert(image, for: tag) }
                return result
            }
        }
        let image: EncodedImage
        switch rendered {
        case .success(let value): image = value
        case .failure(let error): throw APIError(.unprocessableContent, "thumbnail_failed", "\(reference.url): \(error.description)")
        }
        var fields = headers
        fields[.contentType] = image.mediaType
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
    }

    func export(_ kind: EntityKind, _ request: Request, _ context: GlimpseRequestContext) async throws -> Response {
        let reference = try reference(kind, context)
        let name = request.uri.queryParameters.get("as") ?? "json"
        guard let format = ExportFormat(rawValue: name) else {
            throw APIError.badRequest("invalid_parameter", "as must be one of json, text, png; got '\(name.prefix(40))'")
        }
        let bytes: [UInt8]
        do { bytes = try await EntityExporter(store: state.store, thumbnailer: state.thumbnailer).export(reference, as: format) } catch {
            switch error {
            case .details(let details): throw Self.apiError(details)
            case .noThumbnail: throw APIError(.notFound, "no_thumbnail", error.description)
            case .thumbnail: throw APIError(.unprocessableContent, "thumbnail_failed", error.description)
            }
        }
        return Response(status: .ok, headers: [.contentType: format.mediaType], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// 404 unknown or removed, 400 unsupported deferred property, 503 store failure.
    static func apiError(_ error: EntityDetailsError) -> APIError {
        switch error {
        case .resolution(.notFound(let reference)):
            APIError.notFound("\(reference.url): no such \(reference.kind) in the catalog (unknown id, or removed)")
        case .resolution(.invalidURL(let urlError)): APIError.badRequest("invalid_id", urlError.description)
        case .resolution(.store(let storeError)): APIError.store(storeError)
        case .unsupportedProperty: APIError.badRequest("invalid_parameter", error.description)
        }
    }
}
