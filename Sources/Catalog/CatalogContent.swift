import Foundation

/// The entities a ``CatalogSource`` describes, before indexing: landmarks with the
/// absolute paths of their reference images (no fingerprints yet) and collections with
/// their ordered landmark ids. Every id is unique within its kind and every collection
/// member names a landmark of ``landmarks`` (sources validate this).
public struct CatalogContent: Sendable, Hashable {
    /// Landmarks in source order.
    public var landmarks: [LandmarkEntity]
    /// Collections in source order.
    public var collections: [CollectionEntity]

    /// Files and folders the source found but could not use (unreadable, not an image
    /// although named like one, a FIFO…), with the reason. The indexer reports each one as
    /// failed; none becomes an entity.
    public var unreadable: [IndexReport.Failure]

    /// Creates content; call ``validated(source:)`` when it does not come from a source.
    public init(landmarks: [LandmarkEntity], collections: [CollectionEntity], unreadable: [IndexReport.Failure] = []) {
        self.landmarks = landmarks
        self.collections = collections
        self.unreadable = unreadable
    }

    /// Why `id` cannot be a landmark or collection id, or nil when it can. The rule: an id
    /// is non-empty text of at most 1024 bytes (UTF-8) with no control character (U+0000–
    /// U+001F, U+007F–U+009F: no NUL, newline or tab), not only white space. Ids are
    /// stored and compared byte for byte. O(length).
    public static func idProblem(_ id: String) -> String? {
        if let control = id.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters (found U+\(String(format: "%04X", control.value)))"
        }
        if id.trimmingCharacters(in: .whitespaces).isEmpty { return "must not be empty" }
        if id.utf8.count > 1024 { return "must be at most 1024 bytes long (is \(id.utf8.count))" }
        return nil
    }

    /// Every distinct image path, in first-use order.
    public var imagePaths: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for landmark in landmarks {
            for image in landmark.referenceImages where seen.insert(image.path).inserted {
                out.append(image.path)
            }
        }
        return out
    }

    /// Checks the invariants (unique ids per kind, non-empty ids, members that exist and
    /// appear once per collection) and returns `self`. O(n).
    ///
    /// - Throws: ``CatalogSourceError/invalid(source:issues:)`` listing every problem.
    public func validated(source: String) throws(CatalogSourceError) -> CatalogContent {
        var issues: [CatalogIssue] = []
        var landmarkIDs = [String: Int]()
        for (index, landmark) in landmarks.enumerated() {
            let entry = "landmarks[\(index)]"
            if let problem = Self.idProblem(landmark.id) { issues.append(.invalidValue(entry: entry, field: "id", reason: problem)) }
            if let first = landmarkIDs[landmark.id] {
                issues.append(.duplicateID(entry: entry, id: landmark.id, firstEntry: "landmarks[\(first)]"))
            } else {
                landmarkIDs[landmark.id] = index
            }
        }
        var collectionIDs = [String: Int]()
        for (index, collection) in collections.enumerated() {
            let entry = "collections[\(index)]"
            if let problem = Self.idProblem(collection.id) { issues.append(.invalidValue(entry: entry, field: "id", reason: problem)) }
            if let first = collectionIDs[collection.id] {
                issues.append(.duplicateID(entry: entry, id: collection.id, firstEntry: "collections[\(first)]"))
            } else {
                collectionIDs[collection.id] = index
            }
            var members = Set<String>()
            for (m, member) in collection.landmarkIDs.enumerated() {
                if landmarkIDs[member] == nil {
                    issues.append(.unknownLandmark(entry: entry, field: "landmarks[\(m)]", id: member))
                } else if !members.insert(member).inserted {
                    issues.append(.invalidValue(entry: entry, field: "landmarks[\(m)]", reason: "\"\(member)\" is listed twice"))
                }
            }
        }
        guard issues.isEmpty else { throw .invalid(source: source, issues: issues) }
        return self
    }
}
