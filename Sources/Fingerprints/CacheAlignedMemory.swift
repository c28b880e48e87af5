/// Memory whose first byte is on a 64-byte (cache-line) boundary, for the fingerprinter's
/// per-image scratch (``AlignedFloats``, the working planes' row stream).
///
/// Why not `UnsafeMutableRawPointer.allocate(byteCount:alignment: 64)`: above 16 bytes of
/// alignment that is glibc's `posix_memalign`, which asks its heap for `size + alignment +
/// 32` bytes, returns the aligned middle and frees the ends. A freed block is then exactly
/// `size` bytes: too small for the next request of the same size, which again comes from
/// the top of the heap. Indexing thousands of images of a few dozen sizes left most of the
/// heap in such holes (glibc 2.36: 194 MB of heap holding 16 MB in use after 5,000 images,
/// growing by about one image's scratch per image; docs/PERFORMANCE.md, "Indexing memory").
/// An ordinary `malloc` of `size + 63` bytes, rounded up to the next boundary inside, is
/// freed whole and serves the next request of its size.
struct CacheAlignedMemory {
    /// The boundary, in bytes.
    static let alignment = 64
    /// What `malloc` returned (what is freed).
    private let block: UnsafeMutableRawPointer
    /// The first byte on a boundary, with at least the requested bytes after it.
    let base: UnsafeMutableRawPointer

    /// Allocates at least `byteCount` bytes (at least one), uninitialized. O(1).
    init(byteCount: Int) {
        block = UnsafeMutableRawPointer.allocate(byteCount: max(1, byteCount) + Self.alignment - 1, alignment: 16)
        let address = UInt(bitPattern: block)
        let mask = UInt(Self.alignment - 1)
        base = block + Int(((address + mask) & ~mask) - address)
    }

    /// Frees the memory; `base` must not be used after. O(1).
    func deallocate() { block.deallocate() }
}
