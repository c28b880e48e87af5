import Catalog
import Hummingbird
import Search

/// `GET /healthz` (the process answers), `GET /readyz` (503 until the index is loaded, and
/// while the catalog database cannot be reached),
/// `GET /metrics` (Prometheus text) and `GET /openapi.yaml` (the API description, built
/// into the binary from `Sources/GlimpseAPITypes/openapi.yaml` through the link `Sources/Server/openapi.yaml`).
struct OperationalRoutes {
    let state: ServerState

    /// `{"status": "ok"}` or `{"status": "ready", "catalog", "generation", "views", "landmarks",
    /// "unsearchable_images", "unsearchable_landmarks"}` (the last two: images and landmarks
    /// with too little detail for a search, found only by exact copies; absent when the
    /// catalog does not record them).
    struct Status: Codable {
        var status: String
        var catalog: String?
        var generation: Int64?
        var views: Int?
        var landmarks: Int?
        var unsearchableImages: Int?
        var unsearchableLandmarks: Int?

        enum CodingKeys: String, CodingKey {
            case status, catalog, generation, views, landmarks
            case unsearchableImages = "unsearchable_images", unsearchableLandmarks = "unsearchable_landmarks"
        }
    }

    func add(to router: Router<GlimpseRequestContext>) {
        router.get("/healthz") { request, context in context.json(Status(status: "ok"), for: request) }
        router.get("/readyz") { request, context in
            guard let index = state.holder.index else { throw APIError.notReady }
            let version = index.prepared.version
            if let reason = state.health.unreachableReason {
                throw APIError(.serviceUnavailable, "catalog_unreachable",
                               "the catalog database cannot be reached (\(reason)); still answering searches from the index of generation \(version.generation) in memory",
                               headers: [.retryAfter: "1"])
            }
            let unsearchable = state.unsearchable.counts(for: version.generation, store: state.store)
            return context.json(Status(status: "ready", catalog: version.catalogID, generation: version.generation,
                                            views: index.prepared.viewCount, landmarks: index.prepared.landmarkCount,
                                            unsearchableImages: unsearchable?.images, unsearchableLandmarks: unsearchable?.landmarks), for: request)
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: state.metrics.exposition())))
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
    }
}
