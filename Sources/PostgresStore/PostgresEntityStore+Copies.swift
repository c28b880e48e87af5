import Catalog
import Fingerprints
import PostgresNIO

/// Exact copies and what a search cannot find (``EntityStore/landmarkIDs(copying:)``,
/// ``EntityStore/unsearchableCounts(minimumViewQuality:)``).
extension PostgresEntityStore {
    /// The live landmarks with an image of `key`'s content hash, else (none) of its frame
    /// digest, by id.
    /// - Complexity: one statement, two indexed lookups.
    public func landmarkIDs(copying key: CopyKey) async throws(CatalogStoreError) -> [String] {
        let logger = self.logger
        let hash = key.contentHash.hex
        let digest = key.frameDigest?.value
        return try await read("looking up exact copies") { connection in
            // Byte copies, else pixel copies: the flat images one digest may group are only
            // consulted when no catalog file has the query's bytes.
            let rows = try await connection.query("""
                WITH bytes AS (
                  SELECT i.landmark_id FROM landmark_image i JOIN landmark l ON l.id = i.landmark_id
                  WHERE i.content_hash = \(hash) AND l.removal_id IS NULL)
                SELECT landmark_id FROM bytes
                UNION
                SELECT i.landmark_id FROM fingerprint f JOIN landmark_image i ON i.content_hash = f.content_hash
                JOIN landmark l ON l.id = i.landmark_id
                WHERE f.frame_digest = \(digest) AND l.removal_id IS NULL AND NOT EXISTS (SELECT 1 FROM bytes)
                """, logger: logger)
            var ids: [String] = []
            for try await id in rows.decode(String.self) { ids.append(id) }
            return ids.sorted()
        }
    }

    /// Live images and landmarks without a view of quality `minimumViewQuality` or more,
    /// read from the unsearchable fingerprints up (the `v5-quality-index` index), so the
    /// count costs what the catalog holds of flat images, not the catalog (a replica counts
    /// once per generation).
    /// - Complexity: O(unsearchable images × log images), one statement.
    public func unsearchableCounts(minimumViewQuality: Int) async throws(CatalogStoreError) -> UnsearchableCounts? {
        let logger = self.logger
        return try await read("counting unsearchable images") { connection in
            let rows = try await connection.query("""
                WITH flat AS (
                  SELECT i.landmark_id FROM fingerprint f JOIN landmark_image i ON i.content_hash = f.content_hash
                  JOIN landmark l ON l.id = i.landmark_id
                  WHERE f.whole_quality < \(minimumViewQuality) AND l.removal_id IS NULL)
                SELECT (SELECT count(*) FROM flat),
                       (SELECT count(DISTINCT landmark_id) FROM flat WHERE NOT EXISTS (
                          SELECT 1 FROM landmark_image j JOIN fingerprint g ON g.content_hash = j.content_hash
                          WHERE j.landmark_id = flat.landmark_id AND g.whole_quality >= \(minimumViewQuality)))
                """, logger: logger)
            for try await (images, landmarks) in rows.decode((Int, Int).self) {
                return UnsearchableCounts(images: images, landmarks: landmarks)
            }
            return UnsearchableCounts(images: 0, landmarks: 0)
        }
    }
}
