/// The 128-bit code the first stage (``CandidateIndex``) clusters and filters views by: a
/// view's 64-bit DCT pHash and its 64-bit dHash side by side. Per bit they weigh twice a PDQ
/// bit in the fused distance (``SimilarityScoring``: 0.2 / 64 against 0.4 / 256), so the
/// code distance tracks the exact score better than any 128 of PDQ's 256 bits: on the
/// scale benchmark's evaluation, the 128 lowest PDQ frequencies ranked the right landmark
/// out of the candidates for 12 % of the queries where this code loses none
/// (docs/PERFORMANCE.md, "The first stage").
public struct CandidateCode: Sendable, Hashable {
    /// The view's pHash (``low``) and dHash (``high``).
    public var low: UInt64, high: UInt64

    /// Creates a code from its two words.
    public init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The code of a view with this pHash and dHash. O(1).
    public init(pHash: UInt64, dHash: UInt64) { self.init(low: pHash, high: dHash) }

    /// Hamming distance to `other` (0…128). O(1).
    @inline(__always)
    public func distance(to other: CandidateCode) -> Int {
        (low ^ other.low).nonzeroBitCount + (high ^ other.high).nonzeroBitCount
    }
}
