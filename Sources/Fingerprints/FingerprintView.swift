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
    /// PDQ quality in 0…100 (sum of significant luma gradients). Below
    /// ``minimumInformativeQuality`` the view is too flat (blank, uniform, faint noise) to be
    /// matched; below ``PDQHash/minimumUsefulQuality`` (50) PDQ advises caution.
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

    /// Quality below which a view is blank for matching purposes.
    ///
    /// Chosen from measurements on `testdata/`: uniform images and ±2-level noise score 0;
    /// every real photo's full frame scores ≥ 46 (a faint nebula) and every view of the
    /// catalog layout ≥ 17; a smooth full-range gradient scores about 44. 15 keeps all
    /// real views and drops the flat ones.
    public static let minimumInformativeQuality = 15

    /// Whether this view has enough detail to be matched: `quality >=`
    /// ``minimumInformativeQuality``. Blank, uniform or nearly flat views are not
    /// informative: their hashes come from rounding noise (PDQ, pHash) or are all-zero
    /// (aHash, dHash), so they would match every other flat image. An index must skip
    /// them on both the catalog and the query side, so a blank query matches nothing. O(1).
    public var isInformative: Bool { quality >= Self.minimumInformativeQuality }

    /// Least PDQ quality (0…100) of a view that a catalog index keeps and a query scans
    /// with: the default of the search's `SimilarityScoring.minimumViewQuality`, and the
    /// rule by which `glimpse index` counts an image as unsearchable (no view reaches it).
    /// Lower than ``minimumInformativeQuality``: real low-contrast photos keep their views.
    public static let minimumSearchableQuality = 10
}
