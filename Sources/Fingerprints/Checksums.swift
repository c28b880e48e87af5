import CSIMDKernels

/// A fast 64-bit checksum of a byte range (damage detection of stored images such as the
/// visual-index snapshot; not cryptographic): 8 lanes of 32×32-bit multiply-accumulate,
/// scrambled every kilobyte, the same value on every instruction set.
public enum Checksum64 {
    /// The checksum of `bytes`.
    ///
    /// - Complexity: O(n), memory-bandwidth bound on the vector paths.
    public static func of(_ bytes: UnsafeRawBufferPointer, using isa: InstructionSet = .best) -> UInt64 {
        guard let base = bytes.baseAddress else { return glimpse_checksum64(isa.code, nil, 0) }
        return glimpse_checksum64(isa.code, base, bytes.count)
    }

    /// Writes the ``of(_:using:)`` checksum of every `blockSize`-byte block of `bytes` (the
    /// last block shorter) into `table`, one little-endian `UInt64` per block: the table that
    /// ``VerifiedBlocks`` checks blocks against.
    ///
    /// - Precondition: `blockSize` > 0 and `table` holds at least ``blockCount(of:blockSize:)``
    ///   × 8 bytes.
    /// - Complexity: O(n).
    public static func blocks(of bytes: UnsafeRawBufferPointer, blockSize: Int, into table: UnsafeMutableRawBufferPointer,
                              using isa: InstructionSet = .best) {
        precondition(blockSize > 0 && table.count >= 8 * blockCount(of: bytes.count, blockSize: blockSize))
        guard let base = bytes.baseAddress, let out = table.baseAddress else { return }
        glimpse_block_checksums(isa.code, base, bytes.count, blockSize, out)
    }

    /// Blocks of `blockSize` bytes that cover `count` bytes. O(1).
    public static func blockCount(of count: Int, blockSize: Int) -> Int {
        (count + blockSize - 1) / blockSize
    }
}

/// A stored byte image checked block by block the first time each block is read, against a
/// table of block checksums (``Checksum64/blocks(of:blockSize:into:using:)``) that was itself
/// checked: opening the image then costs what its first reader touches, not a pass over all
/// of it, and no byte is used before its block matched.
///
/// Each block's state is one bit, set once its block matched; concurrent readers may check
/// the same block twice but never use one unchecked. Neither the bytes nor the table are
/// owned: whoever owns them keeps them alive (and unchanged) as long as this object.
public final class VerifiedBlocks: @unchecked Sendable {
    private let bytes: UnsafeRawBufferPointer
    private let table: UnsafeRawPointer
    private let bits: UnsafeMutablePointer<UInt64>
    private let words: Int
    private let isa: InstructionSet

    /// Bytes per block (the last one may be shorter).
    public let blockSize: Int

    /// Checks `bytes` against the little-endian checksums at `table`
    /// (``Checksum64/blockCount(of:blockSize:)`` entries), no block checked yet.
    ///
    /// - Precondition: `blockSize` > 0.
    /// - Complexity: O(blocks / 64) to clear the state bits.
    public init(bytes: UnsafeRawBufferPointer, table: UnsafeRawPointer, blockSize: Int, using isa: InstructionSet = .best) {
        precondition(blockSize > 0)
        self.bytes = bytes
        self.table = table
        self.blockSize = blockSize
        self.isa = isa
        words = max(1, (Checksum64.blockCount(of: bytes.count, blockSize: blockSize) + 63) / 64)
        bits = .allocate(capacity: words)
        bits.initialize(repeating: 0, count: words)
    }

    deinit { bits.deallocate() }

    /// Checks the blocks holding the byte offsets `range` (clamped to the image), unless
    /// already checked.
    ///
    /// - Returns: `nil` when every block matches its checksum, else the byte offset where the
    ///   first damaged block starts.
    /// - Complexity: O(1) per block already checked, O(block size) per block checked now.
    @inline(__always)
    public func firstDamage(in range: Range<Int>) -> Int? {
        let lower = max(0, range.lowerBound), upper = min(bytes.count, range.upperBound)
        guard lower < upper, let base = bytes.baseAddress else { return nil }
        let first = lower / blockSize, end = (upper - 1) / blockSize + 1
        let done = glimpse_verify_blocks(isa.code, base, bytes.count, blockSize, table, bits, first, end)
        return done == end ? nil : done * blockSize
    }
}
