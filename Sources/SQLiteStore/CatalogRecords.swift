import Foundation
import GRDB

// GRDB record types of the SQLite catalog, one per table (see ``CatalogSchema``). They
// map rows to values; ``SQLiteEntityStore`` turns them into entities with batched fetches.

/// A row of `catalog_meta`: one key/value of the catalog's identity and state.
struct MetaRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "catalog_meta"
    var key: String
    var value: String
    enum Columns { static let key = Column(CodingKeys.key), value = Column(CodingKeys.value) }
}

/// A row of `landmark`.
struct LandmarkRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "landmark"
    var id: String
    var name: String
    var continent: String?
    var description: String
    /// JSON array of strings.
    var keywords: String
    var latitude: Double?
    var longitude: Double?
    /// Order in the source.
    var position: Int
    var removalID: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, continent, description, keywords, latitude, longitude, position
        case removalID = "removal_id"
    }
    enum Columns {
        static let id = Column(CodingKeys.id), removalID = Column(CodingKeys.removalID)
    }
}

/// A row of `landmark_image`: one reference image of a landmark, in order.
struct LandmarkImageRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "landmark_image"
    var landmarkID: String
    var ordinal: Int
    var path: String
    var contentHash: String?

    enum CodingKeys: String, CodingKey {
        case landmarkID = "landmark_id", ordinal, path, contentHash = "content_hash"
    }
    enum Columns {
        static let landmarkID = Column(CodingKeys.landmarkID), ordinal = Column(CodingKeys.ordinal)
        static let path = Column(CodingKeys.path), contentHash = Column(CodingKeys.contentHash)
    }
}

/// A row of `collection`.
struct CollectionRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "collection"
    var id: String
    var name: String
    var position: Int
    var removalID: Int64?

    enum CodingKeys: String, CodingKey { case id, name, position, removalID = "removal_id" }
    enum Columns { static let id = Column(CodingKeys.id), removalID = Column(CodingKeys.removalID) }
}

/// A row of `collection_member`: one landmark of a collection, in order.
struct CollectionMemberRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "collection_member"
    var collectionID: String
    var ordinal: Int
    var landmarkID: String

    enum CodingKeys: String, CodingKey { case collectionID = "collection_id", ordinal, landmarkID = "landmark_id" }
    enum Columns {
        static let collectionID = Column(CodingKeys.collectionID), ordinal = Column(CodingKeys.ordinal)
        static let landmarkID = Column(CodingKeys.landmarkID)
    }
}

/// A row of `fingerprint`: a cached fingerprint under its content hash.
struct FingerprintRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "fingerprint"
    var contentHash: String
    var data: Data
    /// ``FrameDigest/value`` of the fingerprint's full-frame view.
    var frameDigest: Int64?
    /// ``Fingerprint/wholeImageQuality``.
    var wholeImageQuality: Int?

    enum CodingKeys: String, CodingKey { case contentHash = "content_hash", data, frameDigest = "frame_digest", wholeImageQuality = "whole_quality" }
    enum Columns { static let contentHash = Column(CodingKeys.contentHash) }
}

/// A row of `file_state`.
struct FileStateRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "file_state"
    var path: String
    var size: Int64
    var mtimeNanoseconds: Int64
    var contentHash: String

    enum CodingKeys: String, CodingKey { case path, size, mtimeNanoseconds = "mtime_ns", contentHash = "content_hash" }
}

/// A row of `removal`.
struct RemovalRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "removal"
    var id: Int64?
    var reason: String
    /// Seconds since 1970.
    var removedAt: Double
    var undoneAt: Double?
    /// JSON array of entity URLs.
    var entities: String

    enum CodingKeys: String, CodingKey { case id, reason, removedAt = "removed_at", undoneAt = "undone_at", entities }
    enum Columns { static let id = Column(CodingKeys.id), undoneAt = Column(CodingKeys.undoneAt) }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of `change_log`: one entity touched by the change that made `generation`.
struct ChangeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "change_log"
    var generation: Int64
    /// `landmark` or `collection`.
    var kind: String
    var entityID: String

    enum CodingKeys: String, CodingKey { case generation, kind, entityID = "entity_id" }
    enum Columns { static let generation = Column(CodingKeys.generation) }
}

/// A row of `index_run`: the log of indexing runs.
struct IndexRunRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "index_run"
    var id: Int64?
    var source: String
    var finishedAt: Double
    var added: Int
    var updated: Int
    var unchanged: Int
    var failed: Int
    var generation: Int64

    enum CodingKeys: String, CodingKey { case id, source, finishedAt = "finished_at", added, updated, unchanged, failed, generation }
}
