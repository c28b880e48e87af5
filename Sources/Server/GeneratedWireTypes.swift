import Catalog
import Foundation
import GlimpseAPITypes
import Search

// The generated API types (GlimpseAPITypes, from openapi.yaml) built from the records of
// Search's `WireFormat/`, which `glimpse query --json`, `open --json` and `export` print: the
// mapping from search results and entities to the wire stays in one place (the records), and
// the server answers the spec's own types with the same fields and values (golden files in
// `testdata/wire/` check both).

extension Components.Schemas.ResultPage {
    /// The page `record` describes.
    /// - Complexity: O(results).
    init(_ record: QueryResultRecord) {
        self.init(results: record.results.map(Components.Schemas.Result.init), nextPageToken: .init(record.nextPageToken),
                  partial: record.isPartial, missingPartitions: record.missingPartitions.isEmpty ? nil : record.missingPartitions,
                  elapsedMs: record.elapsedMilliseconds, query: record.query, error: record.error,
                  reason: record.reason.flatMap(ReasonPayload.init(rawValue:)))
    }
}

extension Components.Schemas.Result {
    /// One ranked result, its score rounded as every wire format rounds it (``WireJSON/score(_:)``).
    /// - Complexity: O(1).
    init(_ row: SearchResultRow) {
        self.init(kind: row.kind == .landmark ? .landmark : .collection, id: row.id, title: row.title, subtitle: .init(row.subtitle),
                  score: WireJSON.score(row.score), url: row.url)
    }
}

extension Components.Schemas.Summary {
    /// A related entity's summary.
    /// - Complexity: O(1).
    init(_ summary: EntitySummary) {
        self.init(kind: summary.kind == .landmark ? .landmark : .collection, id: summary.id, title: summary.title,
                  subtitle: .init(summary.subtitle), url: summary.url)
    }
}

extension Components.Schemas.Entity {
    /// The entity `document` describes, with the properties of its kind always present (a
    /// landmark's `location` is `null` when unknown; a collection has `landmarks`).
    /// - Complexity: O(size of the document).
    init(_ document: EntityDocument) {
        self.init(kind: document.kind == .landmark ? .landmark : .collection, id: document.id, url: document.url, title: document.title,
                  subtitle: .init(document.subtitle), thumbnail: .init(document.thumbnail))
        switch document.kind {
        case .landmark:
            description = document.description ?? ""
            continent = document.continent ?? ""
            keywords = document.keywords ?? []
            location = .some(.init(document.location.map { Components.Schemas.Location(latitude: $0.latitude, longitude: $0.longitude) }))
            images = document.images ?? []
            collections = (document.collections ?? []).map(Components.Schemas.Summary.init)
            imageStatistics = document.imageStatistics.map { statistics in
                ImageStatisticsPayload(searchable: statistics.searchable, images: statistics.images.map {
                    .init(path: $0.path, fileSize: .some(.init($0.fileSize.map(Int.init))), views: $0.views, informativeViews: $0.informativeViews,
                          meanQuality: $0.meanQuality, dominantColorBins: $0.dominantColorBins)
                })
            }
        case .collection:
            landmarks = (document.landmarks ?? []).map(Components.Schemas.Summary.init)
        }
    }
}

extension Components.Schemas.RemovalAnswer {
    /// The removal made or undone, or `null` (an undo with nothing to undo).
    /// - Complexity: O(entities removed).
    init(_ removal: Removal?) {
        self.init(removal: .init(removal.map {
            Components.Schemas.Removal(id: Int($0.id), reason: Components.Schemas.Removal.ReasonPayload(rawValue: $0.reason.rawValue) ?? .user,
                                       date: $0.date, undone: $0.isUndone, entities: $0.entities.map(\.url))
        }))
    }
}
