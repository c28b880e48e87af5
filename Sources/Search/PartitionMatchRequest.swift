import Catalog
import Fingerprints
import Foundation

/// What a replica asks of a replica holding another partition (the internal endpoint
/// `POST /internal/v1/partition-matches`; the answer is a ``PartitionMatches``): that
/// partition's matches for a query fingerprint, scored as the asker's search profile
/// scores them, within what is left of the asker's deadline.
///
/// JSON, snake_case keys: `{"partition": "1/4", "profile": 0, "fingerprint": BASE64,
/// "minimum_score": 0.4, "limit": 1000, "membership_of": [...], "deadline_ms": 2500,
/// "first_stage": "first_look"}` (`first_stage` absent or null: the profile's own search,
/// what a replica of an older build asks for).
/// `fingerprint` is ``Fingerprint/serialized()`` in base64 (RFC 4648 §4, padded).
public struct PartitionMatchRequest: Sendable, Hashable, Codable {
    /// The partition asked for: the answering replica must hold it.
    public var partition: CatalogPartition
    /// The asker's scoring profile (which scoring and scan strategy; opaque here).
    public var profile: Int
    /// The query fingerprint, ``Fingerprint/serialized()`` bytes in base64 (padded).
    public var fingerprint: String
    /// Least score kept.
    public var minimumScore: Double
    /// Most matches answered.
    public var limit: Int
    /// Landmarks (exact copies of the query) whose memberships the answer includes when the
    /// partition holds them.
    public var membershipOf: [String]
    /// Milliseconds left of the asker's deadline when it sent the request.
    public var deadlineMilliseconds: Int
    /// When set, the answer comes from this round of the partition's first stage alone
    /// (``ScanStrategy/forRound(_:)``): the asker runs the cascade over every partition's
    /// candidates and asks again for more when they are unsure. Ignored by a profile that
    /// scans every view. `nil`: the profile's own search.
    public var firstStage: FirstStageRound?

    /// Longest ``membershipOf`` list accepted.
    public static let maximumMembershipIDs = 10_000

    enum CodingKeys: String, CodingKey {
        case partition, profile, fingerprint, limit
        case minimumScore = "minimum_score", membershipOf = "membership_of", deadlineMilliseconds = "deadline_ms"
        case firstStage = "first_stage"
    }

    /// Creates a request for `fingerprint`. O(fingerprint size).
    public init(partition: CatalogPartition, profile: Int, fingerprint: Fingerprint, minimumScore: Double, limit: Int,
                membershipOf: [String], deadlineMilliseconds: Int, firstStage: FirstStageRound? = nil) {
        self.partition = partition
        self.profile = profile
        self.fingerprint = Data(fingerprint.serialized()).base64EncodedString()
        self.minimumScore = minimumScore
        self.limit = limit
        self.membershipOf = membershipOf
        self.deadlineMilliseconds = deadlineMilliseconds
        self.firstStage = firstStage
    }

    /// Decodes a request; `first_stage` may be absent (`nil`). O(request size).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        partition = try container.decode(CatalogPartition.self, forKey: .partition)
        profile = try container.decode(Int.self, forKey: .profile)
        fingerprint = try container.decode(String.self, forKey: .fingerprint)
        minimumScore = try container.decode(Double.self, forKey: .minimumScore)
        limit = try container.decode(Int.self, forKey: .limit)
        membershipOf = try container.decode([String].self, forKey: .membershipOf)
        deadlineMilliseconds = try container.decode(Int.self, forKey: .deadlineMilliseconds)
        firstStage = try container.decodeIfPresent(FirstStageRound.self, forKey: .firstStage)
    }

    /// The query fingerprint, or `nil` when ``fingerprint`` is not base64 of a serialized fingerprint.
    /// - Complexity: O(fingerprint size).
    public var decodedFingerprint: Fingerprint? {
        guard let bytes = Data(base64Encoded: fingerprint) else { return nil }
        return try? Fingerprint(serialized: bytes)
    }
}
