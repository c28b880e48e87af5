/// SipHash-2-4 (Aumasson & Bernstein), a keyed 64-bit hash: a fast message
/// authentication code for short inputs (page tokens) and, with fixed keys, a content
/// hash for change detection. Pure Swift, O(n), no allocation.
public struct SipHash24: Sendable, Hashable {
    /// The 128-bit key as two little-endian words.
    public var key: SIMD2<UInt64>

    /// Creates a hasher with the given key.
    public init(key: SIMD2<UInt64>) {
        self.key = key
    }

    /// The 64-bit SipHash-2-4 of `bytes`.
    public func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var v0: UInt64 = key[0] ^ 0x736f_6d65_7073_6575
        var v1: UInt64 = key[1] ^ 0x646f_7261_6e64_6f6d
        var v2: UInt64 = key[0] ^ 0x6c79_6765_6e65_7261
        var v3: UInt64 = key[1] ^ 0x7465_6462_7974_6573
        @inline(__always) func round() {
            v0 &+= v1; v1 = (v1 << 13) | (v1 >> 51); v1 ^= v0; v0 = (v0 << 32) | (v0 >> 32)
            v2 &+= v3; v3 = (v3 << 16) | (v3 >> 48); v3 ^= v2
            v0 &+= v3; v3 = (v3 << 21) | (v3 >> 43); v3 ^= v0
            v2 &+= v1; v1 = (v1 << 17) | (v1 >> 47); v1 ^= v2; v2 = (v2 << 32) | (v2 >> 32)
        }
        let count = bytes.count
        let wholeWords = count / 8
        for w in 0..<wholeWords {
            let m = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self))
            v3 ^= m
            round(); round()
            v0 ^= m
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        for i in 0..<(count & 7) {
            last |= UInt64(bytes[wholeWords * 8 + i]) << (8 * UInt64(i))
        }
        v3 ^= last
        round(); round()
        v0 ^= last
        v2 ^= 0xff
        round(); round(); round(); round()
        return v0 ^ v1 ^ v2 ^ v3
    }

    /// The 64-bit SipHash-2-4 of `bytes`.
    public func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        let array = Array(bytes)
        return array.withUnsafeBytes { hash($0) }
    }
}
