/// Everything `glimpse open` shows about one entity: its display representation, its
/// stored fields, the entities related to it (a landmark's collections, a collection's
/// landmarks) and, only when asked for, deferred properties (like App Intents'
/// `@DeferredProperty`: computed on demand, never stored).
public struct EntityDetails: Sendable, Hashable {
    /// Deferred properties that can be asked for, by name.
    public enum DeferredProperty: String, Sendable, Hashable, CaseIterable {
        /// A landmark's reference-image statistics (``LandmarkImageStatistics``): reads
        /// the files and walks every fingerprint view.
        case imageStatistics = "image-statistics"
    }

    /// The entity.
    public var entity: VisualSearchResult
    /// A landmark's collections, or a collection's landmarks, in order.
    public var related: [VisualSearchResult]
    /// The landmark's image statistics, when asked for.
    public var imageStatistics: LandmarkImageStatistics?

    /// Creates details.
    public init(entity: VisualSearchResult, related: [VisualSearchResult], imageStatistics: LandmarkImageStatistics? = nil) {
        self.entity = entity
        self.related = related
        self.imageStatistics = imageStatistics
    }

    /// Opens `reference` in `store`: the entity and its related entities, plus the
    /// deferred properties in `deferred` (and nothing deferred otherwise).
    ///
    /// Cost: two store lookups, plus for ``DeferredProperty/imageStatistics`` one `stat`
    /// per reference image and a walk over its views.
    ///
    /// - Throws: ``EntityDetailsError``: the entity is unknown or removed, the store
    ///   failed, or a deferred property does not exist for its kind.
    public static func open(_ reference: EntityReference, in store: any EntityStore,
                            with deferred: [DeferredProperty] = []) async throws(EntityDetailsError) -> EntityDetails {
        let resolver = EntityResolver(store: store)
        let entity: VisualSearchResult
        do { entity = try await resolver.entity(for: reference) } catch { throw .resolution(error) }
        var details = EntityDetails(entity: entity, related: [])
        switch entity {
        case .landmark(let landmark):
            do { details.related = try await store.collections(containing: landmark.id).map(VisualSearchResult.collection) } catch {
                throw .resolution(.store(error))
            }
            if deferred.contains(.imageStatistics) { details.imageStatistics = await landmark.imageStatistics }
        case .collection(let collection):
            do { details.related = try await resolver.landmarks(for: collection.landmarkIDs).map(VisualSearchResult.landmark) } catch {
                throw .resolution(error)
            }
            if let property = deferred.first { throw .unsupportedProperty(property.rawValue, kind: .collection) }
        }
        return details
    }

    // MARK: JSON

    /// The entity's wire document (``EntityDocument``: the one JSON form of an entity,
    /// shared with the HTTP API).
    public var document: EntityDocument {
        EntityDocument(entity: entity, related: related, imageStatistics: imageStatistics)
    }

    /// One JSON object (``EntityDocument``): `kind, id, url, title, subtitle, thumbnail`, then for a landmark
    /// `description, continent, keywords, location, images, collections` and, when
    /// computed, `image_statistics`; for a collection `landmarks`; keys sorted. O(fields).
    public var json: String { document.json }

    // MARK: Text

    /// A readable multi-line description (no trailing newline). O(fields).
    public var text: String {
        let display = entity.displayRepresentation
        var lines = [display.title]
        if let subtitle = display.subtitle { lines.append(subtitle) }
        lines.append("")
        lines.append("kind:      \(entity.kind.typeDisplayName)")
        lines.append("id:        \(entity.reference.id)")
        lines.append("url:       \(entity.url)")
        if let thumbnail = display.thumbnailPath { lines.append("thumbnail: \(thumbnail)") }
        switch entity {
        case .landmark(let landmark):
            if !landmark.description.isEmpty { lines.append("about:     \(landmark.description)") }
            if !landmark.keywords.isEmpty { lines.append("keywords:  \(landmark.keywords.joined(separator: ", "))") }
            if let location = landmark.location { lines.append(String(format: "location:  %.4f, %.4f", location.latitude, location.longitude)) }
            lines.append("images:    " + landmark.referenceImages.map(\.path).joined(separator: "\n           "))
            lines.append("")
            lines.append(related.isEmpty ? "In no collection." : "In \(related.count == 1 ? "1 collection" : "\(related.count) collections"):")
        case .collection:
            lines.append("")
            lines.append(related.isEmpty ? "No landmarks." : "\(related.count == 1 ? "1 landmark" : "\(related.count) landmarks"):")
        }
        for item in related {
            lines.append("  \(item.displayRepresentation.title)  \(item.url)")
        }
        if let statistics = imageStatistics {
            lines.append("")
            lines.append("Image statistics (\(statistics.isSearchable ? "searchable" : "not searchable: no informative view")):")
            for image in statistics.images {
                let size = image.fileSize.map { "\($0) bytes" } ?? "missing"
                lines.append(String(format: "  %@: %@, %d views (%d informative), mean quality %.1f, dominant colour bins %@",
                                    image.path, size, image.viewCount, image.informativeViewCount, image.meanQuality,
                                    image.dominantColorBins.map(String.init).joined(separator: ",")))
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// Why entity details could not be made.
public enum EntityDetailsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entity could not be resolved (unknown, removed, or the store failed).
    case resolution(EntityResolutionError)
    /// The deferred property (name) does not exist for this kind of entity.
    case unsupportedProperty(String, kind: EntityKind)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .resolution(let error): error.description
        case .unsupportedProperty(let name, let kind): "a \(kind) has no deferred property '\(name)'"
        }
    }
}

import Catalog
import Foundation
import Search
