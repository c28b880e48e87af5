import Catalog
import Foundation
import Search

/// The outcome for one photo of a batch match (`glimpse match`): its best matching
/// landmarks, no match, or why it failed. One output row per photo, in JSON Lines or CSV.
public struct PhotoMatchRecord: Sendable, Hashable {
    /// What happened to a photo.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// At least one landmark scored at or above the no-match threshold.
        case matched
        /// The photo was fingerprinted but nothing in the catalog matches it.
        case noMatch = "no_match"
        /// The photo could not be read or decoded; ``PhotoMatchRecord/error`` says why.
        case failed = "error"
    }

    /// The photo file, as found under the folder.
    public var photo: String
    /// What happened.
    public var status: Status
    /// Best matching landmarks, best first (ties by id); empty unless ``Status/matched``.
    public var matches: [SearchResultRow]
    /// The reason, for ``Status/failed``: one line naming the file.
    public var error: String?

    /// Creates a record.
    public init(photo: String, status: Status, matches: [SearchResultRow] = [], error: String? = nil) {
        self.photo = photo
        self.status = status
        self.matches = matches
        self.error = error
    }

    /// A record for a photo's matches (``Status/noMatch`` when `matches` is empty).
    public static func matches(_ matches: [SearchResultRow], photo: String) -> PhotoMatchRecord {
        PhotoMatchRecord(photo: photo, status: matches.isEmpty ? .noMatch : .matched, matches: matches)
    }

    /// A record for a photo that failed, with its one-line reason.
    public static func failure(_ reason: String, photo: String) -> PhotoMatchRecord {
        PhotoMatchRecord(photo: photo, status: .failed, error: reason)
    }

    // MARK: JSON Lines

    /// The record as one JSON line (no newline): `{"error", "matches": [{"id", "kind",
    /// "score", "subtitle", "title", "url"}], "photo", "status"}`; the Codable form lives
    /// in `WireFormat/PhotoMatchRecord+Codable.swift`. O(matches).
    public var jsonLine: String { WireJSON.line(self) }

    /// Parses a line written by ``jsonLine``; `nil` when it is not one.
    public init?(jsonLine line: String) {
        guard let record = try? WireJSON.decode(PhotoMatchRecord.self, from: Array(line.utf8)) else { return nil }
        self = record
    }

    // MARK: CSV

    /// The CSV header line (RFC 4180): `photo,status,best_id,best_title,best_score,best_url,matches,error`.
    /// `matches` holds every match as `URL SCORE`, separated by `;`.
    public static let csvHeader = "photo,status,best_id,best_title,best_score,best_url,matches,error"

    /// One CSV line (no newline), fields quoted when needed. O(matches).
    public var csvLine: String {
        let best = matches.first
        let fields = [
            photo, status.rawValue, best?.id ?? "", best?.title ?? "", best.map { CSVText.score($0.score) } ?? "",
            best?.url ?? "", matches.map { "\($0.url) \(CSVText.score($0.score))" }.joined(separator: ";"), error ?? "",
        ]
        return fields.map(CSVText.field).joined(separator: ",")
    }

    /// Parses a line written by ``csvLine``; `nil` for the header or anything else.
    /// Titles of matches other than the best are not in CSV: they come back empty.
    public init?(csvLine line: String) {
        guard let fields = CSVText.fields(of: line), fields.count == 8, let status = Status(rawValue: fields[1]) else { return nil }
        var matches: [SearchResultRow] = []
        for item in fields[6].split(separator: ";") {
            let parts = item.split(separator: " ")
            guard parts.count == 2, let score = Double(parts[1]),
                  let reference = try? EntityReference(url: String(parts[0])) else { return nil }
            let isBest = matches.isEmpty
            matches.append(SearchResultRow(kind: reference.kind, id: reference.id, title: isBest ? fields[3] : "",
                                           subtitle: nil, score: score, url: reference.url))
        }
        self.init(photo: fields[0], status: status, matches: matches, error: fields[7].isEmpty ? nil : fields[7])
    }
}
