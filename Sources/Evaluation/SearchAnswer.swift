/// What the evaluation needs from one query: the landmark ids the query API returned in
/// rank order, and the best raw match before any no-match threshold (its id and score),
/// from which the operating point is calibrated.
public struct SearchAnswer: Sendable, Hashable {
    /// Landmark ids as the query API ranked them, best first (collections left out).
    public var landmarkIDs: [String]
    /// Similarity (0…1, higher is more similar) of the best raw match, or `nil` when
    /// nothing matched at all.
    public var topScore: Double?
    /// Id of the best raw match, or `nil` when nothing matched at all.
    public var topID: String?
    /// The best raw match's distances: PDQ, pHash, dHash, histogram L1 and the query view
    /// that found it (``LandmarkMatch``), for explaining scores; `nil` when unknown.
    public var topDistances: [Int]?
    /// The exhaustive scan's landmark ids at the no-match threshold (at most 10, best first),
    /// when the search used a first stage and was compared with it; `nil` otherwise.
    public var exhaustiveIDs: [String]?
    /// The query's first-stage codes (``QueryOutcome/queryCodes``), when compared with the
    /// exhaustive scan; `nil` otherwise.
    public var queryCodes: [String]?

    /// Creates an answer; `topID` defaults to the first ranked landmark.
    public init(landmarkIDs: [String], topScore: Double?, topID: String?? = nil, topDistances: [Int]? = nil, exhaustiveIDs: [String]? = nil,
                queryCodes: [String]? = nil) {
        self.queryCodes = queryCodes
        self.topDistances = topDistances
        self.exhaustiveIDs = exhaustiveIDs
        self.landmarkIDs = landmarkIDs
        self.topScore = topScore
        self.topID = topID ?? landmarkIDs.first
    }
}
