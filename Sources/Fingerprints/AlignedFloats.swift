/// Scratch floats on 64-byte (cache-line) boundaries, for kernels that store whole vectors
/// at row starts: an `[Float]`'s elements start 32 bytes into a 16-byte-aligned block, so
/// every other 32-byte store of a transposed strip straddled two cache lines (the PDQ row
/// filter's write-back measured 1.2× slower that way). Owns its memory (freed on deinit);
/// the contents are uninitialized until a kernel writes them.
final class AlignedFloats {
    /// Number of floats held.
    private(set) var count: Int
    /// The first float, 64-byte aligned.
    private(set) var base: UnsafeMutablePointer<Float>
    /// The memory behind ``base``.
    private var memory: CacheAlignedMemory

    /// Alignment of ``base``, in bytes.
    static let alignment = CacheAlignedMemory.alignment

    /// Allocates `count` floats (at least one). O(1) (memory is not touched).
    init(count: Int) {
        self.count = max(1, count)
        memory = Self.allocate(self.count)
        base = memory.base.bindMemory(to: Float.self, capacity: self.count)
    }

    /// Makes room for at least `needed` floats; the contents are lost when it grows.
    /// O(1) (memory is not touched).
    func reserve(_ needed: Int) {
        guard needed > count else { return }
        memory.deallocate()
        count = needed
        memory = Self.allocate(needed)
        base = memory.base.bindMemory(to: Float.self, capacity: needed)
    }

    private static func allocate(_ count: Int) -> CacheAlignedMemory {
        CacheAlignedMemory(byteCount: count * MemoryLayout<Float>.stride)
    }

    deinit { memory.deallocate() }
}
