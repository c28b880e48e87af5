import Foundation
import GlimpseAPITypes

/// One page of search results (`results`, `nextPageToken`, `partial`, `elapsedMs`, `reason`).
public typealias ResultPage = Components.Schemas.ResultPage
/// One ranked result: a landmark or a collection with its score (0…1).
public typealias SearchResult = Components.Schemas.Result
/// A landmark or collection with its display representation and relations.
public typealias Entity = Components.Schemas.Entity
/// Codes computed on the device for ``GlimpseClient/search(fingerprint:labels:pageSize:deadline:exact:minimumScore:)``.
public typealias FingerprintLookup = Components.Schemas.FingerprintLookup
/// A removal made or undone (`id`, `reason`, `date`, `undone`, `entities`).
public typealias Removal = Components.Schemas.Removal
/// What `/healthz` and `/readyz` answer (status, catalog version, index size).
public typealias ServerStatus = Components.Schemas.Status

/// The two kinds of catalog entity.
public enum EntityKind: String, Sendable, CaseIterable {
    /// A place: one or more reference images.
    case landmark
    /// A named group of landmarks.
    case collection

    /// The remove request's kind.
    var removeKind: Components.Schemas.RemoveRequest.KindPayload {
        switch self {
        case .landmark: return .landmark
        case .collection: return .collection
        }
    }
}

/// How ``GlimpseClient/remove(_:id:mode:)`` removes an entity (both are undoable).
public enum RemovalMode: String, Sendable, CaseIterable {
    /// Hidden from searches and reads, kept as archived.
    case archive
    /// Removed by the user.
    case delete

    var payload: Components.Schemas.RemoveRequest.ModePayload {
        switch self {
        case .archive: return .archive
        case .delete: return .delete
        }
    }
}

/// The representations ``GlimpseClient/export(_:id:as:)`` asks for.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// The entity as JSON.
    case json
    /// A plain-text description.
    case text
    /// The entity's image as PNG.
    case png

    var parameter: Components.Parameters.ExportAs {
        switch self {
        case .json: return .json
        case .text: return .text
        case .png: return .png
        }
    }
}

/// What ``GlimpseClient/thumbnail(of:id:ifNoneMatch:)`` answers.
public enum Thumbnail: Sendable, Equatable {
    /// A PNG of at most 256 pixels and its entity tag, for a later `ifNoneMatch`.
    case image(png: Data, etag: String?)
    /// The caller's copy is current.
    case notModified(etag: String?)
}

/// What ``GlimpseClient/export(_:id:as:)`` answers, in the format asked for.
public enum Export: Sendable, Equatable {
    /// The entity.
    case json(Entity)
    /// Its plain-text description.
    case text(String)
    /// Its image, PNG bytes.
    case png(Data)
}
