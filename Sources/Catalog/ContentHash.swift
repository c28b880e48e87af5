import Foundation

/// A 128-bit hash of a file's bytes (two SipHash-2-4 runs with fixed, distinct keys),
/// written as 32 lowercase hex digits. Used to tell whether an image's content changed
/// and as the key under which its fingerprint is cached. Not a cryptographic digest.
public struct ContentHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 32 lowercase hex digits.
    public var hex: String

    /// Wraps an existing hex form (as read back from the store).
    public init(hex: String) {
        self.hex = hex
    }

    /// Hashes `bytes`. O(n), about 1 GB/s.
    public init(of bytes: UnsafeRawBufferPointer) {
        let a = SipHash24(key: SIMD2(0x676c_696d_7073_6531, 0x636f_6e74_656e_7431)).hash(bytes)
        let b = SipHash24(key: SIMD2(0x676c_696d_7073_6532, 0x636f_6e74_656e_7432)).hash(bytes)
        hex = Self.hex(a) + Self.hex(b)
    }

    /// Hashes `data`. O(n).
    public init(of data: Data) {
        self = data.withUnsafeBytes { ContentHash(of: $0) }
    }

    /// The hex form.
    public var description: String { hex }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
