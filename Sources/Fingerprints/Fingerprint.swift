/// Everything Glimpse stores about one image: a small set of ``FingerprintView``s,
/// each the codes of one sub-region (the whole frame, centre crops, corners…).
///
/// The index searches every view, so a query that is a crop of a catalog image (or
/// a catalog image with foreign margins around it) still lands near one view.
/// Which views exist is decided by ``FingerprintViewLayout``.
public struct Fingerprint: Sendable, Hashable, Codable {
    /// Views in layout order; `views[0]` is always the full frame.
    public var views: [FingerprintView]

    /// Creates a fingerprint from its views.
    public init(views: [FingerprintView]) {
        self.views = views
    }

    /// The full-frame view.
    public var full: FingerprintView? { views.first }
}

/// The codes of one region of an image.
public struct FingerprintView: Sendable, Hashable, Codable {
    /// Which part of the image this view covers.
    public var region: ViewRegion
    /// 64-bit average hash (8×8 mean threshold).
    public var aHash: UInt64
    /// 64-bit difference hash (horizontal and vertical gradients).
    public var dHash: UInt64
    /// 64-bit DCT perceptual hash (32×32 DCT, 8×8 low frequencies, median threshold).
    public var pHash: UInt64
    /// 256-bit PDQ-compatible hash.
    public var pdq: PDQHash
    /// PDQ quality in 0…100; below ``PDQHash/minimumUsefulQuality`` the view is too
    /// flat (blank, uniform) to be trusted.
    public var quality: Int
    /// Quantised colour histogram (64 bins).
    public var histogram: ColorHistogram

    /// Creates a view from its codes.
    public init(region: ViewRegion, aHash: UInt64, dHash: UInt64, pHash: UInt64, pdq: PDQHash, quality: Int, histogram: ColorHistogram) {
        self.region = region
        self.aHash = aHash
        self.dHash = dHash
        self.pHash = pHash
        self.pdq = pdq
        self.quality = quality
        self.histogram = histogram
    }
}

/// A sub-region of an image as fractions of its width and height (0…1), so the same
/// view means the same part of the picture at any resolution.
public struct ViewRegion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Left edge as a fraction of the width.
    public var x: Float
    /// Top edge as a fraction of the height.
    public var y: Float
    /// Width as a fraction of the width.
    public var width: Float
    /// Height as a fraction of the height.
    public var height: Float

    /// Creates a fractional region.
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole image.
    public static let full = ViewRegion(x: 0, y: 0, width: 1, height: 1)

    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}

/// A 256-bit perceptual hash in PDQ's layout, as four 64-bit words.
///
/// Word 0 holds PDQ bits 0…63 (bit i of the hash is bit `i % 64` of word `i / 64`).
/// Hex form follows PDQ: 64 hex digits, most significant 16-bit group first.
public struct PDQHash: Sendable, Hashable, Codable {
    /// The 256 bits, least significant word first.
    public var words: SIMD4<UInt64>

    /// Creates a hash from its words.
    public init(words: SIMD4<UInt64>) {
        self.words = words
    }

    /// The all-zero hash.
    public static let zero = PDQHash(words: .zero)

    /// Quality below which PDQ's reference implementation advises not to trust a hash.
    public static let minimumUsefulQuality = 50

    /// Number of differing bits, 0…256. O(1): four popcounts.
    @inlinable
    public func distance(to other: PDQHash) -> Int {
        let x = words ^ other.words
        return x[0].nonzeroBitCount + x[1].nonzeroBitCount + x[2].nonzeroBitCount + x[3].nonzeroBitCount
    }
}

/// A colour histogram of 64 bins, L1-normalised and quantised so that the bins sum
/// to about 255. 64 bytes.
public struct ColorHistogram: Sendable, Hashable, Codable {
    /// The bins, each 0…255.
    public var bins: [UInt8]

    /// Number of bins in every histogram.
    public static let binCount = 64

    /// Creates a histogram; `bins` must hold exactly ``binCount`` values.
    public init(bins: [UInt8]) {
        precondition(bins.count == Self.binCount, "a ColorHistogram has \(Self.binCount) bins")
        self.bins = bins
    }

    /// An all-zero histogram.
    public static let empty = ColorHistogram(bins: Array(repeating: 0, count: binCount))
}
