/// A 256-bit perceptual hash in PDQ's layout, as four 64-bit words.
///
/// Bit `i` of the hash (0…255) is bit `i % 64` of `words[i / 64]`. PDQ sets bit
/// `16 * r + c` when DCT coefficient (r, c) — r the vertical, c the horizontal frequency,
/// both 1…16 counted from 0 — exceeds the median of the 256 coefficients.
/// Hex form follows PDQ (`pdq-photo-hasher`): 64 lowercase hex digits, most significant
/// bit first, i.e. `words[3]`, `words[2]`, `words[1]`, `words[0]` each as 16 digits.
public struct PDQHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 256 bits, least significant word first.
    public var words: SIMD4<UInt64>

    /// Creates a hash from its words.
    public init(words: SIMD4<UInt64>) {
        self.words = words
    }

    /// Parses PDQ's 64-digit hex form (either case); `nil` when `hex` is not exactly
    /// 64 hex digits. O(64).
    public init?(hex: some StringProtocol) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var words = SIMD4<UInt64>.zero
        for w in 0..<4 {
            var value: UInt64 = 0
            for d in digits[(w * 16)..<(w * 16 + 16)] {
                guard let nibble = PDQHash.nibble(d) else { return nil }
                value = value << 4 | UInt64(nibble)
            }
            words[3 - w] = value
        }
        self.words = words
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The all-zero hash.
    public static let zero = PDQHash(words: .zero)

    /// Quality below which PDQ's reference implementation advises not to trust a hash
    /// (and below which Glimpse treats a view as blank, see ``FingerprintView/isInformative``).
    public static let minimumUsefulQuality = 50

    /// Bit `index` (0…255).
    @inlinable
    public func bit(_ index: Int) -> Bool {
        (words[index >> 6] >> UInt64(index & 63)) & 1 == 1
    }

    /// Number of bits set, 0…256.
    public var popcount: Int {
        words[0].nonzeroBitCount + words[1].nonzeroBitCount + words[2].nonzeroBitCount + words[3].nonzeroBitCount
    }

    /// Number of differing bits, 0…256. O(1): four popcounts.
    @inlinable
    public func distance(to other: PDQHash) -> Int {
        let x = words ^ other.words
        return x[0].nonzeroBitCount + x[1].nonzeroBitCount + x[2].nonzeroBitCount + x[3].nonzeroBitCount
    }

    /// The 64-digit hex form (see the type's documentation).
    public var hex: String {
        var out = ""
        out.reserveCapacity(64)
        for w in (0..<4).reversed() {
            let s = String(words[w], radix: 16)
            out += String(repeating: "0", count: 16 - s.count) + s
        }
        return out
    }

    /// Same as ``hex``.
    public var description: String { hex }
}
