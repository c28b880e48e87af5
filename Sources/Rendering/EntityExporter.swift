import Catalog

/// The representations an entity can be exported as, richest first, like a
/// `Transferable` type's list: structured JSON, then plain text, then its thumbnail image.
public enum ExportFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// ``EntityDetails/json`` (with related entities): the richest, lossless form.
    case json
    /// ``EntityDetails/text``: readable, for pasting.
    case text
    /// The entity's thumbnail as a PNG image.
    case png

    /// The media type (`application/json`, `text/plain; charset=utf-8`, `image/png`).
    public var mediaType: String {
        switch self {
        case .json: "application/json"
        case .text: "text/plain; charset=utf-8"
        case .png: "image/png"
        }
    }

    /// One line for people, naming what and why.
    public var description: String { rawValue }
}

/// Exports entities in the ``ExportFormat``s, like `Transferable` representations.
public struct EntityExporter: Sendable {
    /// The catalog.
    public let store: any EntityStore
    /// Makes the PNG representation.
    public var thumbnailer: Thumbnailer

    /// Creates an exporter (PNG thumbnails up to 256 pixels by default).
    public init(store: any EntityStore, thumbnailer: Thumbnailer = Thumbnailer(maxSide: 256)) {
        self.store = store
        self.thumbnailer = thumbnailer
    }

    /// The formats `entity` can be exported as, richest first: always JSON and text, PNG
    /// only when it has a thumbnail image. O(1).
    public func representations(of entity: VisualSearchResult) -> [ExportFormat] {
        entity.displayRepresentation.thumbnailPath == nil ? [.json, .text] : [.json, .text, .png]
    }

    /// The bytes of `reference` in `format` (JSON and text end with a newline).
    ///
    /// Cost: two store lookups; for PNG one scaled decode of the thumbnail image and one
    /// PNG encode.
    ///
    /// - Throws: ``EntityExportError`` naming the entity and the reason.
    public func export(_ reference: EntityReference, as format: ExportFormat) async throws(EntityExportError) -> [UInt8] {
        let details: EntityDetails
        do { details = try await EntityDetails.open(reference, in: store) } catch { throw .details(error) }
        switch format {
        case .json: return Array((details.json + "\n").utf8)
        case .text: return Array((details.text + "\n").utf8)
        case .png:
            guard let path = details.entity.displayRepresentation.thumbnailPath else {
                throw .noThumbnail(reference, available: representations(of: details.entity))
            }
            do { return try thumbnailer.pngThumbnail(file: path).bytes } catch { throw .thumbnail(reference, error) }
        }
    }
}

/// Why an entity could not be exported.
public enum EntityExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The entity could not be opened.
    case details(EntityDetailsError)
    /// PNG was asked for but the entity has no thumbnail (the formats it has).
    case noThumbnail(EntityReference, available: [ExportFormat])
    /// The thumbnail image could not be read or encoded.
    case thumbnail(EntityReference, ThumbnailError)

    /// One line for people, naming what and why.
    public var description: String {
        switch self {
        case .details(let error): error.description
        case .noThumbnail(let reference, let available):
            "\(reference.url): has no thumbnail to export as png (available: \(available.map(\.rawValue).joined(separator: ", ")))"
        case .thumbnail(let reference, let error): "\(reference.url): \(error.description)"
        }
    }
}
