import Catalog

/// Opens entities by URL or (kind, id) — the "open" intent — and resolves lists of ids the
/// way App Intents' `EntityQuery.entities(for:)` does (unknown ids are skipped).
public struct EntityResolver: Sendable {
    /// The catalog.
    public let store: any EntityStore

    /// Creates a resolver over `store`.
    public init(store: any EntityStore) {
        self.store = store
    }

    /// The live entity a `glimpse://landmark/<id>` or `glimpse://collection/<id>` URL names.
    ///
    /// - Throws: ``EntityResolutionError/invalidURL(_:)``, ``EntityResolutionError/notFound(_:)``
    ///   (unknown or removed), or ``EntityResolutionError/store(_:)``.
    public func entity(for url: String) async throws(EntityResolutionError) -> VisualSearchResult {
        let reference: EntityReference
        do { reference = try EntityReference(url: url) } catch { throw .invalidURL(error) }
        return try await entity(for: reference)
    }

    /// The live entity of this kind and id.
    ///
    /// - Throws: ``EntityResolutionError/notFound(_:)`` or ``EntityResolutionError/store(_:)``.
    public func entity(for reference: EntityReference) async throws(EntityResolutionError) -> VisualSearchResult {
        guard let found = try await entities(for: [reference]).first else { throw .notFound(reference) }
        return found
    }

    /// The live entities among `references`, in the order given, skipping unknown or
    /// removed ones and repeats. O(references) lookups.
    public func entities(for references: [EntityReference]) async throws(EntityResolutionError) -> [VisualSearchResult] {
        do {
            let landmarks = Dictionary(try await store.landmarks(ids: references.filter { $0.kind == .landmark }.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let collections = Dictionary(try await store.collections(ids: references.filter { $0.kind == .collection }.map(\.id)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var seen = Set<EntityReference>()
            return references.compactMap { reference in
                guard seen.insert(reference).inserted else { return nil }
                switch reference.kind {
                case .landmark: return landmarks[reference.id].map(VisualSearchResult.landmark)
                case .collection: return collections[reference.id].map(VisualSearchResult.collection)
                }
            }
        } catch { throw .store(error) }
    }

    /// The live landmarks among `ids`, in order, skipping unknown ones (`EntityQuery.entities(for:)`).
    public func landmarks(for ids: [String]) async throws(EntityResolutionError) -> [LandmarkEntity] {
        do { return try await store.landmarks(ids: ids) } catch { throw .store(error) }
    }

    /// The live collections among `ids`, in order, skipping unknown ones.
    public func collections(for ids: [String]) async throws(EntityResolutionError) -> [CollectionEntity] {
        do { return try await store.collections(ids: ids) } catch { throw .store(error) }
    }
}

/// Why an entity could not be opened.
public enum EntityResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not a valid entity URL.
    case invalidURL(EntityURLError)
    /// No live entity has that kind and id (unknown, or removed: see `undo`).
    case notFound(EntityReference)
    /// The store failed.
    case store(CatalogStoreError)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .invalidURL(let error): error.description
        case .notFound(let reference): "\(reference.url): no such \(reference.kind) in the catalog (unknown id, or removed)"
        case .store(let error): error.description
        }
    }
}
