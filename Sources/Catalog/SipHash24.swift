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
    /// - Complexity: O(`bytes.count`), about 1 GB/s on one core.
    public func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state = State(key: key)
        for word in 0..<(bytes.count / 8) {
            state.absorb(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)))
        }
        state.absorb(Self.lastWord(bytes))
        return state.finish()
    }

    /// The 64-bit SipHash-2-4 of `bytes`.
    /// - Complexity: O(n), with one copy of the bytes.
    public func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        let array = Array(bytes)
        return array.withUnsafeBytes { hash($0) }
    }

    /// The SipHash-2-4 of `bytes` under two keys in one pass over them: the same two values
    /// as `SipHash24(key: first).hash(bytes)` and `SipHash24(key: second).hash(bytes)`, in
    /// about 0.7 of their time, since the two states' rounds are independent and run side by
    /// side on one core (`benchmarks/`: SearchBenchmarks, "ContentHash").
    /// - Complexity: O(`bytes.count`).
    public static func hashes(_ bytes: UnsafeRawBufferPointer, first: SIMD2<UInt64>, second: SIMD2<UInt64>) -> (UInt64, UInt64) {
        var a = State(key: first), b = State(key: second)
        for word in 0..<(bytes.count / 8) {
            let m = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self))
            a.absorb(m)
            b.absorb(m)
        }
        let last = lastWord(bytes)
        a.absorb(last)
        b.absorb(last)
        return (a.finish(), b.finish())
    }

    /// The final message word: the bytes after the last whole word, little-endian, with the
    /// length's low byte on top.
    @inline(__always)
    private static func lastWord(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        let whole = count & ~7
        var last = UInt64(truncatingIfNeeded: count) << 56
        for i in 0..<(count & 7) {
            last |= UInt64(bytes[whole + i]) << (8 * UInt64(i))
        }
        return last
    }

    /// The four words of one SipHash-2-4 run.
    private struct State {
        var v0, v1, v2, v3: UInt64

        @inline(__always)
        init(key: SIMD2<UInt64>) {
            v0 = key[0] ^ 0x736f_6d65_7073_6575
            v1 = key[1] ^ 0x646f_7261_6e64_6f6d
            v2 = key[0] ^ 0x6c79_6765_6e65_7261
            v3 = key[1] ^ 0x7465_6462_7974_6573
        }

        /// One SipRound.
        @inline(__always)
        mutating func round() {
            v0 &+= v1; v1 = (v1 << 13) | (v1 >> 51); v1 ^= v0; v0 = (v0 << 32) | (v0 >> 32)
            v2 &+= v3; v3 = (v3 << 16) | (v3 >> 48); v3 ^= v2
            v0 &+= v3; v3 = (v3 << 21) | (v3 >> 43); v3 ^= v0
            v2 &+= v1; v1 = (v1 << 17) | (v1 >> 47); v1 ^= v2; v2 = (v2 << 32) | (v2 >> 32)
        }

        /// One message word through two compression rounds.
        @inline(__always)
        mutating func absorb(_ m: UInt64) {
            v3 ^= m
            round(); round()
            v0 ^= m
        }

        /// The four finalisation rounds and the 64-bit result.
        @inline(__always)
        mutating func finish() -> UInt64 {
            v2 ^= 0xff
            round(); round(); round(); round()
            return v0 ^ v1 ^ v2 ^ v3
        }
    }
}
