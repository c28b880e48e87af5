import Catalog
import Fingerprints
import Logging
import Rendering

/// What the routes share: the store, the current index, the limits and the metrics.
/// One per server; immutable apart from the ``IndexHolder``'s swaps.
public struct ServerState: Sendable {
    /// The catalog, only through the store protocol (a ``LastKnownEntityStore`` over the
    /// opened store: entities read before are answered from memory while the database is away).
    public let store: any EntityStore
    /// The index requests search (swapped on reload).
    public let holder: IndexHolder
    /// Whether the catalog database answered the last check (`/readyz`).
    public let health: CatalogHealth
    /// The server's settings.
    public let configuration: ServerConfiguration
    /// The bounded search concurrency.
    let slots: SearchSlots
    /// The bounded concurrency of other replicas' partition requests (as many as searches,
    /// apart from them: a search waiting on other partitions never starves their answers).
    let partitionSlots: SearchSlots
    /// The fan-out to the other partitions' replicas (a replica of one partition), else `nil`.
    let fanOut: PartitionFanOut?
    /// Body bytes held by all requests at once (``UploadPolicy/bufferedBytesBudget``).
    let bodyBudget: BodyBudget
    /// The one timer over every body being read (``RequestBody``).
    let bodyWatchdog = DeadlineWatchdog()
    /// Request and index metrics.
    let metrics: ServerMetrics
    /// The index reloader (admin changes ask it to check at once).
    let reloader: IndexReloader
    /// Thumbnails for the thumbnail endpoints (PNG, at most 256 pixels).
    let thumbnailer = Thumbnailer(maxSide: 256)
    /// Rendered thumbnails by ETag (bounded in bytes).
    let thumbnails = ThumbnailCache()
    /// Threads of their own for decoding and fingerprinting uploads (one per core).
    let decodeWorkers = WorkerPool(width: AvailableCores.count, name: "glimpse-decode")
    /// Threads of their own for rendering thumbnails (half the cores, at least one), so a
    /// burst of cold thumbnails leaves cores to searches.
    let thumbnailWorkers = WorkerPool(width: max(1, AvailableCores.count / 2), name: "glimpse-thumbnail")
    /// The catalog's unsearchable images and landmarks, per generation (`/readyz`).
    let unsearchable = UnsearchableCountCache()
    /// The server's logger.
    let logger: Logger
}
