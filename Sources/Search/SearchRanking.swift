import Catalog
import Foundation

/// The whole ranked answer to one query, before paging: landmarks and collections
/// interleaved in one list.
///
/// Order: score descending; on equal scores landmarks before collections; then id
/// ascending. Landmark score = visual score + label boost (capped at 1; only for landmarks
/// scoring at least the query's threshold, so labels never make a match). Collection
/// score = its best matching member's score + ``SearchConfiguration/collectionBonusPerExtraMember``
/// per additional matching member (up to ``SearchConfiguration/collectionBonusMaximumMembers``),
/// capped at 1; only live collections with at least one matching member appear.
struct SearchRanking: Sendable {
    struct Entry: Sendable, Hashable {
        var reference: EntityReference
        var score: Double
        var matchedLabels: [String]
    }

    var entries: [Entry]
    var isPartial: Bool
    /// Partitions missing from the ranking (never cached: the next page asks them again).
    var missingPartitions: [CatalogPartition] = []
    /// Landmarks loaded while ranking (for their keywords), reused to fill pages.
    var landmarks: [String: LandmarkEntity]

    static func rank(
        matches: [LandmarkMatch], landmarks: [String: LandmarkEntity], labels: [String],
        collectionsByLandmark: [String: [String]], configuration: SearchConfiguration, threshold: Double, isPartial: Bool
    ) -> SearchRanking {
        let wanted = Set(labels.map(normalized).filter { !$0.isEmpty })
        var entries: [Entry] = []
        var landmarkScores: [String: Double] = [:]
        for match in matches {
            guard let landmark = landmarks[match.landmarkID] else { continue }
            var matched: [String] = []
            var boost = 0.0
            if match.score >= threshold && !wanted.isEmpty {
                let keywords = Set(landmark.keywords.map(normalized))
                matched = wanted.filter { keywords.contains($0) }.sorted()
                boost = min(configuration.maximumLabelBoost, configuration.labelBoostPerLabel * Double(matched.count))
            }
            let score = min(1, match.score + boost)
            landmarkScores[match.landmarkID] = score
            entries.append(Entry(reference: landmark.reference, score: score, matchedLabels: matched))
        }
        var memberScores: [String: [Double]] = [:]
        for (landmarkID, score) in landmarkScores {
            for collectionID in collectionsByLandmark[landmarkID] ?? [] {
                memberScores[collectionID, default: []].append(score)
            }
        }
        for (collectionID, scores) in memberScores {
            let sorted = scores.sorted(by: >)
            let extra = min(sorted.count - 1, configuration.collectionBonusMaximumMembers)
            let score = min(1, sorted[0] + configuration.collectionBonusPerExtraMember * Double(extra))
            entries.append(Entry(reference: EntityReference(kind: .collection, id: collectionID), score: score, matchedLabels: []))
        }
        entries.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.reference.kind != b.reference.kind { return a.reference.kind == .landmark }
            return a.reference.id < b.reference.id
        }
        return SearchRanking(entries: entries, isPartial: isPartial, landmarks: landmarks)
    }

    static func normalized(_ word: String) -> String {
        word.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
