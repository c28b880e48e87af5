import Catalog
import GlimpseAPITypes
import Hummingbird
import OpenAPIRuntime
import Search

/// `GET /metrics` (Prometheus text), a plain route; the generated operations `GET /healthz`
/// (the process answers), `GET /readyz` (503 until the index is loaded, and while the catalog
/// database cannot be reached) and `GET /openapi.yaml` (the API description, built into the
/// binary from `Sources/GlimpseAPITypes/openapi.yaml` through the link `Sources/Server/openapi.yaml`)
/// are in the extension below.
struct OperationalRoutes {
    let state: ServerState

    func add(to router: Router<GlimpseRequestContext>) {
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: state.metrics.exposition())))
        }
    }
}

extension GlimpseAPIHandler {
    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        .ok(.init(body: .json(.init(status: .ok))))
    }

    /// Ready: the catalog version and index size served (`unsearchable_images` and
    /// `unsearchable_landmarks`: images and landmarks with too little detail for a search, found
    /// only by exact copies; absent when the catalog does not record them). A replica of one
    /// partition also names it and the partitions its searches reach and miss (readiness is
    /// its own index's: a missing partition makes pages partial, not this replica unready).
    func ready(_ input: Operations.Ready.Input) async throws -> Operations.Ready.Output {
        guard let index = state.holder.index else { throw APIError.notReady }
        let version = index.prepared.version
        if let reason = state.health.unreachableReason {
            throw APIError(.serviceUnavailable, "catalog_unreachable",
                           "the catalog database cannot be reached (\(reason)); still answering searches from the index of generation \(version.generation) in memory",
                           headers: [.retryAfter: "1"])
        }
        let unsearchable = state.unsearchable.counts(for: version.generation, store: state.store)
        let partitions = state.fanOut?.reachability()
        return .ok(.init(body: .json(.init(status: .ready, catalog: version.catalogID, generation: Int(version.generation),
                                           views: index.prepared.viewCount, landmarks: index.prepared.landmarkCount,
                                           unsearchableImages: unsearchable?.images, unsearchableLandmarks: unsearchable?.landmarks,
                                           partition: state.configuration.cluster?.partition.description,
                                           partitionsReachable: partitions?.reachable.map(\.description),
                                           partitionsMissing: partitions?.missing.map(\.description)))))
    }

    /// Never called: `GET /metrics` is a plain route (``OperationalRoutes``).
    func metrics(_ input: Operations.Metrics.Input) async throws -> Operations.Metrics.Output {
        throw Self.servedByPlainRoute("GET /metrics")
    }

    func openapi(_ input: Operations.Openapi.Input) async throws -> Operations.Openapi.Output {
        .ok(.init(body: .yaml(HTTPBody(PackageResources.openapi_yaml))))
    }
}
