/// What the evaluation needs from one query: the landmark ids in rank order and the
/// score of the first (0…1, higher is more similar; `nil` when no landmark came back).
public struct SearchAnswer: Sendable, Hashable {
    /// Landmark ids, best first (collections left out).
    public var landmarkIDs: [String]
    /// Similarity of the first landmark, or `nil` when the answer is empty.
    public var topScore: Double?

    /// Creates an answer.
    public init(landmarkIDs: [String], topScore: Double?) {
        self.landmarkIDs = landmarkIDs
        self.topScore = topScore
    }
}
