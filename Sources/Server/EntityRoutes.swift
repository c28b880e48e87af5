import Catalog
import Foundation
import GlimpseAPITypes
import HTTPTypes
import OpenAPIRuntime
import Rendering
import Search
import Tracing

/// The entity operations of the generated interface: `GET /v1/{landmarks|collections}/{id}`
/// (the spec's `Entity`, deferred properties only with `?with=…`), `GET /v1/entities?ids=a,b`
/// (unknown ids skipped), `…/{id}/thumbnail` (PNG with an ETag, 304 on `If-None-Match`) and
/// `…/{id}/export?as=json|text|png`.
///
/// Ids may contain slashes (`nature/hurricane-ridge`): clients percent-encode them into
/// one path segment (`nature%2Fhurricane-ridge`); the generated interface decodes it.
extension GlimpseAPIHandler {
    /// Most ids in one `GET /v1/entities`.
    static let maximumEntityIDs = 100

    func getLandmark(_ input: Operations.GetLandmark.Input) async throws -> Operations.GetLandmark.Output {
        .ok(.init(body: .json(try await entity(try reference(.landmark, input.path.id), with: input.query.with))))
    }

    func getCollection(_ input: Operations.GetCollection.Input) async throws -> Operations.GetCollection.Output {
        .ok(.init(body: .json(try await entity(try reference(.collection, input.path.id), with: input.query.with))))
    }

    func getLandmarkThumbnail(_ input: Operations.GetLandmarkThumbnail.Input) async throws -> Operations.GetLandmarkThumbnail.Output {
        switch try await thumbnail(try reference(.landmark, input.path.id), ifNoneMatch: input.headers.ifNoneMatch) {
        case .image(let png, let tag): .ok(.init(headers: .init(eTag: tag, cacheControl: Self.thumbnailCaching), body: .png(HTTPBody(png))))
        case .notModified(let tag): .notModified(.init(headers: .init(eTag: tag, cacheControl: Self.thumbnailCaching)))
        }
    }

    func getCollectionThumbnail(_ input: Operations.GetCollectionThumbnail.Input) async throws -> Operations.GetCollectionThumbnail.Output {
        switch try await thumbnail(try reference(.collection, input.path.id), ifNoneMatch: input.headers.ifNoneMatch) {
        case .image(let png, let tag): .ok(.init(headers: .init(eTag: tag, cacheControl: Self.thumbnailCaching), body: .png(HTTPBody(png))))
        case .notModified(let tag): .notModified(.init(headers: .init(eTag: tag, cacheControl: Self.thumbnailCaching)))
        }
    }

    func exportLandmark(_ input: Operations.ExportLandmark.Input) async throws -> Operations.ExportLandmark.Output {
        .ok(.init(body: try await export(try reference(.landmark, input.path.id), as: input.query._as)))
    }

    func exportCollection(_ input: Operations.ExportCollection.Input) async throws -> Operations.ExportCollection.Output {
        .ok(.init(body: try await export(try reference(.collection, input.path.id), as: input.query._as)))
    }

    func getEntities(_ input: Operations.GetEntities.Input) async throws -> Operations.GetEntities.Output {
        let items = input.query.ids.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard items.count <= Self.maximumEntityIDs else {
            throw APIError.badRequest("invalid_parameter", "ids: at most \(Self.maximumEntityIDs) ids per request; got \(items.count)")
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
            // Two batched reads for every entity's related ones, whatever the count of ids.
            var landmarkIDs: [String] = [], memberIDs: [String] = []
            for entity in found {
                switch entity {
                case .landmark(let landmark): landmarkIDs.append(landmark.id)
                case .collection(let collection): memberIDs += collection.landmarkIDs
                }
            }
            let holding = landmarkIDs.isEmpty ? [:] : try await state.store.collections(containingEach: landmarkIDs)
            let members = memberIDs.isEmpty ? [] : try await state.store.landmarks(ids: memberIDs)
            let memberByID = Dictionary(members.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let documents = found.map { entity in
                let related: [VisualSearchResult] = switch entity {
                case .landmark(let landmark): (holding[landmark.id] ?? []).map(VisualSearchResult.collection)
                case .collection(let collection): Self.unique(collection.landmarkIDs).compactMap { memberByID[$0] }.map(VisualSearchResult.landmark)
                }
                return Components.Schemas.Entity(EntityDocument(entity: entity, related: related))
            }
            return .ok(.init(body: .json(.init(entities: documents))))
        } catch let error as EntityResolutionError {
            throw Self.apiError(.resolution(error))
        } catch let error as CatalogStoreError {
            throw APIError.store(error)
        }
    }

    /// `ids` without repeats, in their order (as ``EntityStore/landmarks(ids:)`` answers). O(ids).
    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// How long clients and proxies may keep a thumbnail.
    static let thumbnailCaching = "public, max-age=300"

    /// A rendered thumbnail, or the client's copy still current.
    enum Thumbnail {
        case image([UInt8], tag: String)
        case notModified(tag: String)
    }

    /// The reference named by the `{id}` path segment (percent-decoded by the generated interface).
    ///
    /// - Throws: 400 `invalid_id` for an empty id.
    func reference(_ kind: EntityKind, _ id: String) throws(APIError) -> EntityReference {
        guard !id.isEmpty else {
            throw APIError.badRequest("invalid_id", "the entity id must be percent-encoded into one path segment")
        }
        return EntityReference(kind: kind, id: id)
    }

    /// The entity's document, with the deferred properties `with` names (comma-separated).
    func entity(_ reference: EntityReference, with: String?) async throws(APIError) -> Components.Schemas.Entity {
        var deferred: [EntityDetails.DeferredProperty] = []
        for name in (with ?? "").split(separator: ",") {
            guard let property = EntityDetails.DeferredProperty(rawValue: String(name)) else {
                let known = EntityDetails.DeferredProperty.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.badRequest("invalid_parameter", "with: unknown deferred property '\(name.prefix(40))' (known: \(known))")
            }
            deferred.append(property)
        }
        let reads = state.configuration.tracing.start("entity reads")
        defer { reads.end() }
        do {
            return Components.Schemas.Entity(try await EntityDetails.open(reference, in: state.store, with: deferred).document)
        } catch { throw Self.apiError(error) }
    }

    /// The entity's PNG thumbnail and its ETag, or ``Thumbnail/notModified(tag:)`` when
    /// `ifNoneMatch` names the current one.
    func thumbnail(_ reference: EntityReference, ifNoneMatch: String?) async throws(APIError) -> Thumbnail {
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
        if let match = ifNoneMatch, match.split(separator: ",").contains(where: {
            let candidate = $0.trimmingCharacters(in: .whitespaces)
            return candidate == tag || candidate == "W/" + tag || candidate == "*"
        }) {
            return .notModified(tag: tag)
        }
        // Rendered on threads of their own (a few at once, the rest waiting their turn), once
        // per picture: a render that waited finds what the one before it kept.
        let cache = state.thumbnails, thumbnailer = state.thumbnailer
        let rendered: Result<EncodedImage, ThumbnailError>
        if let kept = cache.image(for: tag) {
            rendered = .success(kept)
        } else {
            do { rendered = try await state.thumbnailWorkers.run {
                if let kept = cache.image(for: tag) { return .success(kept) }
                let result = Result { () throws(ThumbnailError) -> EncodedImage in try thumbnailer.pngThumbnail(file: path) }
                if case .success(let image) = result { cache.insert(image, for: tag) }
                return result
            } } catch { throw APIError(.internalServerError, "internal_error", "the thumbnail worker failed: \(error)") }
        }
        let image: EncodedImage
        switch rendered {
        case .success(let value): image = value
        case .failure(let error): throw APIError(.unprocessableContent, "thumbnail_failed", "\(reference.url): \(error.description)")
        }
        return .image(image.bytes, tag: tag)
    }

    /// `reference` in the representation asked for (json when none; the generated interface
    /// has already refused any other name).
    func export(_ reference: EntityReference, as representation: Components.Parameters.ExportAs?) async throws(APIError) -> Components.Responses.Export.Body {
        let format: ExportFormat = switch representation {
        case .text: .text
        case .png: .png
        case .json, nil: .json
        }
        if format == .json {
            do { return .json(Components.Schemas.Entity(try await EntityDetails.open(reference, in: state.store).document)) } catch { throw Self.apiError(error) }
        }
        let bytes: [UInt8]
        do { bytes = try await EntityExporter(store: state.store, thumbnailer: state.thumbnailer).export(reference, as: format) } catch {
            switch error {
            case .details(let details): throw Self.apiError(details)
            case .noThumbnail: throw APIError(.notFound, "no_thumbnail", error.description)
            case .thumbnail: throw APIError(.unprocessableContent, "thumbnail_failed", error.description)
            }
        }
        return format == .png ? .png(HTTPBody(bytes)) : .plainText(HTTPBody(bytes))
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
