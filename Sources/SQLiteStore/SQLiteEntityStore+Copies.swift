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
    ///
    /// Counted a range of ``unsearchableCountBatch`` landmark ids per read transaction, so no
    /// read holds an old snapshot for long: at a million images the whole count reads every
    /// fingerprint row (tens of seconds), and one transaction that long would hold every
    /// writer's WAL checkpoint for its busy timeout. The ranges are read until the last id;
    /// a catalog that changes between two of them is counted per range as it then is (a
    /// reader counts once per generation, so the next generation's count corrects it).
    /// - Complexity: O(images), in O(landmarks / batch) short reads.
    public func unsearchableCounts(minimumViewQuality: Int) throws(CatalogStoreError) -> UnsearchableCounts? {
        try unsearchableCounts(minimumViewQuality: minimumViewQuality, batch: Self.unsearchableCountBatch)
    }

    /// ``unsearchableCounts(minimumViewQuality:)`` with ranges of `batch` landmarks (tests
    /// cross many range boundaries with small ones).
    func unsearchableCounts(minimumViewQuality: Int, batch: Int) throws(CatalogStoreError) -> UnsearchableCounts? {
        guard hasCopyKeys else { return nil }
        var counts = UnsearchableCounts(images: 0, landmarks: 0)
        var after: String? = nil
        while true {
            let range: (last: String, images: Int, landmarks: Int)? = try read("counting unsearchable images") { db in
                // The next range of live landmark ids: those after `after`, up to the batch.
                let ids = try String.fetchAll(db, sql: """
                    SELECT id FROM landmark WHERE removal_id IS NULL AND (?1 IS NULL OR id > ?1) ORDER BY id LIMIT ?2
                    """, arguments: [after, max(1, batch)])
                guard let first = ids.first, let last = ids.last else { return nil }
                let row = try Row.fetchOne(db, sql: """
                    SELECT (SELECT count(*) FROM landmark_image i JOIN landmark l ON l.id = i.landmark_id
                            JOIN fingerprint f ON f.content_hash = i.content_hash
                            WHERE l.id >= ?2 AND l.id <= ?3 AND l.removal_id IS NULL AND f.whole_quality < ?1) AS images,
                           (SELECT count(*) FROM (SELECT i.landmark_id FROM landmark_image i JOIN landmark l ON l.id = i.landmark_id
                            JOIN fingerprint f ON f.content_hash = i.content_hash WHERE l.id >= ?2 AND l.id <= ?3 AND l.removal_id IS NULL
                            GROUP BY i.landmark_id HAVING max(f.whole_quality) < ?1)) AS landmarks
                    """, arguments: [minimumViewQuality, first, last])
                return (last, row?["images"] ?? 0, row?["landmarks"] ?? 0)
            }
            guard let range else { return counts }
            counts = UnsearchableCounts(images: counts.images + range.images, landmarks: counts.landmarks + range.landmarks)
            after = range.last
        }
    }

    /// Landmarks counted per read transaction by ``unsearchableCounts(minimumViewQuality:)``.
    static let unsearchableCountBatch = 2_000
}
