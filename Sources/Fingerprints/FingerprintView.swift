/// The codes of one region of an image.
public struct FingerprintView: Sendable, Hashable, Codable {
    /// Which part of the image this view covers.
    public var region: ViewRegion
    /// 64-bit average hash (8×8 area-averaged luma, bit set where above the mean).
    /// See ``PerceptualHashes/averageHash(luma:region:using:)``.
    public var aHash: UInt64
    /// 64-bit difference hash: 32 horizontal-gradient bits and 32 vertical-gradient bits.
    /// See ``PerceptualHashes/differenceHash(luma:region:using:)``.
    public var dHash: UInt64
    /// 64-bit DCT perceptual hash (32×32 DCT, 8×8 lowest frequencies without DC, median threshold).
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

    /// Whether this view has enough detail to be matched: `quality >=`
    /// ``PDQHash/minimumUsefulQuality``. Blank, uniform or nearly flat views are not
    /// informative; an index must skip them (their hashes are near all-zero and would
    /// otherwise match every other flat image). O(1).
    public var isInformative: Bool { quality >= PDQHash.minimumUsefulQuality }
}
