/// The entities a ``CatalogSource`` describes, before indexing: landmarks with the
/// absolute paths of their reference images (no fingerprints yet) and collections with
/// their ordered landmark ids. Every id is unique within its kind and every collection
/// member names a landmark of ``landmarks`` (sources validate this).
public struct CatalogContent: Sendable, Hashable {
    /// Landmarks in source order.
    public var landmarks: [LandmarkEntity]
    /// Collections in source order.
    public var collections: [CollectionEntity]

    /// Creates content; call ``validated(source:)`` when it does not come from a source.
    public init(landmarks: [LandmarkEntity], collections: [CollectionEntity]) {
        self.landmarks = landmarks
        self.collections = collections
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
            if landmark.id.isEmpty { issues.append(.invalidValue(entry: entry, field: "id", reason: "must not be empty")) }
            if let first = landmarkIDs[landmark.id] {
                issues.append(.duplicateID(entry: entry, id: landmark.id, firstEntry: "landmarks[\(first)]"))
            } else {
                landmarkIDs[landmark.id] = index
            }
        }
        var collectionIDs = [String: Int]()
        for (index, collection) in collections.enumerated() {
            let entry = "collections[\(index)]"
            if collection.id.isEmpty { issues.append(.invalidValue(entry: entry, field: "id", reason: "must not be empty")) }
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
