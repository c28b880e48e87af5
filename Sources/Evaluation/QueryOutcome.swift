/// What one evaluation query returned: the landmark ids in rank order and the score of
/// the first one. Positives know which landmark they should find; negatives do not.
public struct QueryOutcome: Sendable, Hashable, Codable {
    /// Wire keys: snake_case like every JSON Glimpse writes (golden `testdata/wire/`).
    enum CodingKeys: String, CodingKey {
        case image
        case transformation
        case expectedID = "expected_id"
        case rankedIDs = "ranked_ids"
        case topScore = "top_score"
        case topID = "top_id"
        case topDistances = "top_distances"
        case exhaustiveIDs = "exhaustive_ids"
        case queryCodes = "query_codes"
    }

    /// The source image, relative to its folder (for example `animals/otter.jpg`).
    public var image: String
    /// The transformation's name (``ImageTransformation/rawValue``, or `original`).
    public var transformation: String
    /// The landmark the query should find; `nil` for a negative (no right answer).
    public var expectedID: String?
    /// Landmark ids in the order the query ranked them (collections left out).
    public var rankedIDs: [String]
    /// Similarity (0…1, higher is more similar) of the best raw match before any
    /// no-match threshold; `nil` when nothing matched at all.
    public var topScore: Double?
    /// Id of the best raw match before any no-match threshold; `nil` when nothing matched.
    public var topID: String?
    /// The best raw match's PDQ, pHash, dHash and histogram distances and query view index, if known.
    public var topDistances: [Int]?
    /// The exhaustive scan's landmark ids at the no-match threshold (at most 10), when the
    /// search used a first stage and was compared with it (``SearchAnswer/exhaustiveIDs``).
    public var exhaustiveIDs: [String]?
    /// With the exhaustive comparison: the query's informative views as the first stage
    /// reads them, each `PHASH:DHASH:F` (full frame) or `PHASH:DHASH:I` (inner view) with the
    /// two 64-bit words in hexadecimal, so other first stages can be measured on exactly
    /// these codes (`benchmarks/faiss-first-stage.sh`); `nil` otherwise.
    public var queryCodes: [String]?

    /// Creates an outcome; `topID` defaults to the first ranked id.
    public init(image: String, transformation: String, expectedID: String?, rankedIDs: [String], topScore: Double?, topID: String?? = nil,
                topDistances: [Int]? = nil, exhaustiveIDs: [String]? = nil, queryCodes: [String]? = nil) {
        self.queryCodes = queryCodes
        self.topDistances = topDistances
        self.exhaustiveIDs = exhaustiveIDs
        self.image = image
        self.transformation = transformation
        self.expectedID = expectedID
        self.rankedIDs = rankedIDs
        self.topScore = topScore
        self.topID = topID ?? rankedIDs.first
    }

    /// Whether the best raw match is the expected landmark (what the operating point counts).
    public var isCorrectRawMatch: Bool { expectedID != nil && topID == expectedID }

    /// 1-based rank of ``expectedID`` among ``rankedIDs``, or `nil` when it is absent
    /// (or this is a negative).
    public var rankOfExpected: Int? {
        guard let expectedID, let index = rankedIDs.firstIndex(of: expectedID) else { return nil }
        return index + 1
    }

    /// Whether the first landmark is the expected one.
    public var isCorrectAtTop: Bool { rankOfExpected == 1 }
}
