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
    /// Read from the unsearchable fingerprints up (the `v5-quality-index` index on
    /// `fingerprint(whole_quality)`), each joined to the live images that use it; a landmark
    /// is counted when no image of it has a searchable fingerprint. So the count costs what
    /// the catalog holds of flat images, not the catalog: a replica counts once per
    /// generation, and a pass over every image (49 s at a million images) held every
    /// writer's WAL checkpoint behind its snapshot. A read-only catalog of an older schema
    /// (no such index) is scanned whole by the same statement.
    /// The read runs on GRDB's queue, the calling task suspended (at a million images it
    /// reads for seconds with a cold page cache); on a catalog in WAL mode, beside other reads.
    /// - Complexity: O(unsearchable images × log images), one read (O(images) without the index).
    public func unsearchableCounts(minimumViewQuality: Int) async throws(CatalogStoreError) -> UnsearchableCounts? {
        guard hasCopyKeys else { return nil }
        return try await readSuspending("counting unsearchable images") { db in
            // CROSS JOIN keeps SQLite's join order: from the quality index to the images. The
            // live unsearchable images are gathered once (MATERIALIZED), counted, and their
            // landmarks checked once each for a searchable image.
            let row = try Row.fetchOne(db, sql: """
                WITH flat(landmark_id) AS MATERIALIZED (
                    SELECT i.landmark_id FROM fingerprint f CROSS JOIN landmark_image i ON i.content_hash = f.content_hash
                    CROSS JOIN landmark l ON l.id = i.landmark_id
                    WHERE f.whole_quality < ?1 AND l.removal_id IS NULL)
                SELECT (SELECT count(*) FROM flat) AS images,
                       (SELECT count(*) FROM (SELECT DISTINCT landmark_id FROM flat) d
                        WHERE NOT EXISTS (SELECT 1 FROM landmark_image j JOIN fingerprint g ON g.content_hash = j.content_hash
                                          WHERE j.landmark_id = d.landmark_id AND g.whole_quality >= ?1)) AS landmarks
                """, arguments: [minimumViewQuality])
            return UnsearchableCounts(images: row?["images"] ?? 0, landmarks: row?["landmarks"] ?? 0)
        }
    }
}
