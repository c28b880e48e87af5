import Fingerprints

/// A landmark's best visual match for one query: its score and the raw distances of the
/// best (query view, catalog view) pair. Codable (snake_case keys) for the partition
/// replicas' internal answers (``PartitionMatches``); the score's `Double` round-trips exactly.
public struct LandmarkMatch: Sendable, Hashable, Codable {
    /// The landmark.
    public var landmarkID: String
    /// Similarity score, 0…1 (see ``SimilarityScoring``); labels are not included.
    public var score: Double
    /// PDQ Hamming distance of the best pair, 0…256.
    public var pdqDistance: Int
    /// pHash Hamming distance of the best pair, 0…64.
    public var pHashDistance: Int
    /// dHash Hamming distance of the best pair, 0…64.
    public var dHashDistance: Int
    /// Histogram L1 distance of the best pair, 0…510.
    public var histogramDistance: Int
    /// Which query view matched (index into the query fingerprint's views).
    public var queryViewIndex: Int
    /// Which catalog view matched (its region in the reference image).
    public var catalogRegion: ViewRegion

    enum CodingKeys: String, CodingKey {
        case landmarkID = "landmark_id", score, pdqDistance = "pdq_distance", pHashDistance = "phash_distance"
        case dHashDistance = "dhash_distance", histogramDistance = "histogram_distance", queryViewIndex = "query_view"
        case catalogRegion = "catalog_region"
    }

    /// Creates a match.
    public init(landmarkID: String, score: Double, pdqDistance: Int, pHashDistance: Int, dHashDistance: Int,
                histogramDistance: Int, queryViewIndex: Int, catalogRegion: ViewRegion) {
        self.landmarkID = landmarkID
        self.score = score
        self.pdqDistance = pdqDistance
        self.pHashDistance = pHashDistance
        self.dHashDistance = dHashDistance
        self.histogramDistance = histogramDistance
        self.queryViewIndex = queryViewIndex
        self.catalogRegion = catalogRegion
    }
}
