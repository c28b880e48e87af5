import Catalog
import GRDB

/// Exact copies and what a search cannot find (``EntityStore/landmarkIDs(copying:)``,
/// ``EntityStore/unsearchableCounts(minimumViewQuality:)``).
extension SQLiteEntityStore {
    /// The live landmarks with an image of `key`'s content hash, else (none) of its frame
    /// digest, by id.
    /// - Complexity: two indexed lookups (content hash only on a read-only catalog of an
    ///   older schema, unindexed there).
    public func landmarkIDs(copying key: CopyKey) throws(CatalogStoreError) -> [String] {
        try read("looking up exact copies") { db in
            var ids = try String.fetchAll(db, sql: """
                SELECT i.landmark_id FROM landmark_image i JOIN landmark l ON l.id = i.landmark_id
                WHERE i.content_hash = ? AND l.removal_id IS NULL
                """, arguments: [key.contentHash.hex])
            if ids.isEmpty, let digest = key.frameDigest, hasCopyKeys {
                ids = try String.fetchAll(db, sql: """
                    SELECT i.landmark_id FROM fingerprint f JOIN landmark_image i ON i.content_hash = f.content_hash
                    JOIN landmark l ON l.id = i.landmark_id WHERE f.frame_digest = ? AND l.removal_id IS NULL
                    """, arguments: [digest.value])
            }
            return Set(ids).sorted()
        }
    }

    /// Live images and landmarks without a view of quality `minimumViewQuality` or more;
    /// `nil` on a read-only catalog of a schema older than `v4-copy-keys`.
    /// - Complexity: O(images), one query.
    public func unsearchableCounts(minimumViewQuality: Int) throws(CatalogStoreError) -> UnsearchableCounts? {
        guard hasCopyKeys else { return nil }
        return try read("counting unsearchable images") { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM landmark_image i JOIN landmark l ON l.id = i.landmark_id
                        JOIN fingerprint f ON f.content_hash = i.content_hash
                        WHERE l.removal_id IS NULL AND f.whole_quality < ?1) AS images,
                       (SELECT count(*) FROM (SELECT i.landmark_id FROM landmark_image i JOIN landmark l ON l.id = i.landmark_id
                        JOIN fingerprint f ON f.content_hash = i.content_hash WHERE l.removal_id IS NULL
                        GROUP BY i.landmark_id HAVING max(f.whole_quality) < ?1)) AS landmarks
                """, arguments: [minimumViewQuality])
            return UnsearchableCounts(images: row?["images"] ?? 0, landmarks: row?["landmarks"] ?? 0)
        }
    }
}
