import CSIMDKernels

/// A colour histogram of 64 bins over an HSV partition of RGB, L1-normalised and
/// quantised so that the bins sum to 255 (± rounding: each bin is `round(255 · share)`).
/// 64 bytes, stored inline (no heap allocation).
///
/// ## Bins
/// For a pixel with channels r, g, b in 0…255, let `max`, `min` be its largest and
/// smallest channel, `delta = max − min` (HSV: V = max/255, S = delta/max).
/// - **0…15, achromatic**: when `max < 51` (V < 0.2, too dark for hue to mean anything)
///   or `delta < 0.2 · max` (S < 0.2, greyish): bin `min(15, ⌊max / 16⌋)`, 16 grey levels.
/// - **16…63, chromatic**: `16 + hue · 4 + sat · 2 + val` where `hue` is the HSV hue in
///   12 sectors of 30° centred on red (0), orange (1), yellow (2), … ,
///   (`⌊h · 2 + 0.5⌋ mod 12` with h in 0…6 sextants), `sat = S ≥ 0.55 ? 1 : 0`,
///   `val = max ≥ 153 (V ≥ 0.6) ? 1 : 0`.
///
/// Histograms are built from the area-averaged working image (see ``Fingerprinter``), so
/// they depend on proportions, not on resolution, and the averaging absorbs JPEG noise.
public struct ColorHistogram: Sendable, Hashable, Codable {
    /// The bins as one 64-byte SIMD value (the fast storage; ``bins`` is the array view).
    public var packed: SIMD64<UInt8>

    /// Number of bins in every histogram.
    public static let binCount = 64

    /// The bins, each 0…255. Reading makes a 64-element array.
    public var bins: [UInt8] {
        get { (0..<Self.binCount).map { packed[$0] } }
        set {
            precondition(newValue.count == Self.binCount, "a ColorHistogram has \(Self.binCount) bins")
            for i in 0..<Self.binCount { packed[i] = newValue[i] }
        }
    }

    /// Creates a histogram; `bins` must hold exactly ``binCount`` values.
    public init(bins: [UInt8]) {
        precondition(bins.count == Self.binCount, "a ColorHistogram has \(Self.binCount) bins")
        var p = SIMD64<UInt8>()
        for i in 0..<Self.binCount { p[i] = bins[i] }
        self.packed = p
    }

    /// Creates a histogram from its packed bins.
    public init(packed: SIMD64<UInt8>) {
        self.packed = packed
    }

    /// Normalises raw counts (one per bin) so that they sum to about 255:
    /// bin = round(255 · count / total). All-zero counts give ``empty``.
    public init(counts: [UInt32]) {
        self = counts.withUnsafeBufferPointer { ColorHistogram(counts: $0) }
    }

    /// ``init(counts:)`` from counts held anywhere (the working planes' summed-area table
    /// lookups, on the stack). O(64).
    init(counts: UnsafeBufferPointer<UInt32>) {
        precondition(counts.count == Self.binCount, "a ColorHistogram has \(Self.binCount) bins")
        var total: UInt64 = 0
        for c in counts { total += UInt64(c) }
        var p = SIMD64<UInt8>()
        if total > 0 {
            // ⌊(510·c + total) / (2·total)⌋ by one Double division per bin instead of a 64-bit
            // integer one (64 per view showed in profiles). Exact: numerator and divisor are
            // integers below 2^42 (c, total < 2^38), so both are exact Doubles, and a quotient
            // that is not an integer lies at least 1/divisor below the next one — a relative
            // gap ≥ 2^-42, far more than the division's rounding (2^-53) — so it never rounds
            // up to that integer, and an integer quotient is exact. The bytes are written in
            // place: setting a SIMD64 lane by index cost more than the arithmetic.
            let divisor = Double(2 * total)
            withUnsafeMutableBytes(of: &p) { bytes in
                for i in 0..<Self.binCount {
                    // Non-negative, so truncation is the floor (and needs no libm call).
                    bytes[i] = UInt8(Double(UInt64(counts[i]) * 510 + total) / divisor)
                }
            }
        }
        self.packed = p
    }

    /// An all-zero histogram.
    public static let empty = ColorHistogram(packed: SIMD64<UInt8>())

    /// L1 distance: sum of |a − b| over the 64 bins, 0…16320 (two normalised histograms
    /// with no colour in common are about 510 apart). O(1): one SAD on AVX-512.
    public func distance(to other: ColorHistogram, using isa: InstructionSet = .best) -> Int {
        withUnsafeBytes(of: packed) { a in
            withUnsafeBytes(of: other.packed) { b in
                Int(glimpse_l1_u8(isa.code, a.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                  b.baseAddress?.assumingMemoryBound(to: UInt8.self), 64))
            }
        }
    }

    // Codable as `{"bins": [64 numbers]}`, independent of the storage.
    private enum CodingKeys: String, CodingKey { case bins }

    /// Decodes `{"bins": [...]}`; throws `DecodingError.dataCorrupted` unless there are 64 bins.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let bins = try c.decode([UInt8].self, forKey: .bins)
        guard bins.count == Self.binCount else {
            throw DecodingError.dataCorruptedError(forKey: .bins, in: c, debugDescription: "expected \(Self.binCount) bins, got \(bins.count)")
        }
        self.init(bins: bins)
    }

    /// Encodes `{"bins": [...]}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bins, forKey: .bins)
    }
}
