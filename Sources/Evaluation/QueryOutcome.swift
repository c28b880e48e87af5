/// What one evaluation query returned: the landmark ids in rank order and the score of
/// the first one. Positives know which landmark they should find; negatives do not.
public struct QueryOutcome: Sendable, Hashable, Codable {
    /// The source image, relative to its folder (for example `animals/otter.jpg`).
    public var image: String
    /// The transformation's name (``ImageTransformation/rawValue``, or `original`).
    public var transformation: String
    /// The landmark the query should find; `nil` for a negative (no right answer).
    public var expectedID: String?
    /// Landmark ids in the order the query ranked them (collections left out).
    public var rankedIDs: [String]
    /// Similarity of the first landmark (0…1, higher is more similar); `nil` when the
    /// query returned no landmark at all (it judged the image a non-match).
    public var topScore: Double?

    /// Creates an outcome.
    public init(image: String, transformation: String, expectedID: String?, rankedIDs: [String], topScore: Double?) {
        self.image = image
        self.transformation = transformation
        self.expectedID = expectedID
        self.rankedIDs = rankedIDs
        self.topScore = topScore
    }

    /// 1-based rank of ``expectedID`` among ``rankedIDs``, or `nil` when it is absent
    /// (or this is a negative).
    public var rankOfExpected: Int? {
        guard let expectedID, let index = rankedIDs.firstIndex(of: expectedID) else { return nil }
        return index + 1
    }

    /// Whether the first landmark is the expected one.
    public var isCorrectAtTop: Bool { rankOfExpected == 1 }
}
