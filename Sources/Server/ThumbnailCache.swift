import Rendering
import Synchronization

/// Rendered thumbnails, kept by their ETag (which names the source file's path, size,
/// modification time and the rendering size, so a changed file is a new key), at most
/// ``capacityBytes`` in all, the least recently used dropped first: a burst of requests for
/// the same pictures costs one render per picture.
final class ThumbnailCache: Sendable {
    /// Most bytes of encoded images kept.
    let capacityBytes: Int
    private let state = Mutex(State())

    private struct State {
        var images: [String: (image: EncodedImage, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// Creates an empty cache of at most `capacityBytes`.
    init(capacityBytes: Int = 32 << 20) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// The image kept under `tag`, if any (marked as just used). O(1).
    func image(for tag: String) -> EncodedImage? {
        state.withLock { state in
            guard var entry = state.images[tag] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.images[tag] = entry
            return entry.image
        }
    }

    /// Keeps `image` under `tag`, dropping the least recently used images beyond
    /// ``capacityBytes``. O(1), or O(n) per image dropped.
    func insert(_ image: EncodedImage, for tag: String) {
        state.withLock { state in
            guard image.bytes.count <= capacityBytes, state.images[tag] == nil else { return }
            state.clock += 1
            state.images[tag] = (image, state.clock)
            state.bytes += image.bytes.count
            while state.bytes > capacityBytes, let oldest = state.images.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.images[oldest.key] = nil
                state.bytes -= oldest.value.image.bytes.count
            }
        }
    }
}
