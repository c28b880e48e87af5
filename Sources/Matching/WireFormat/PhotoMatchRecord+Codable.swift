import Search

/// The JSON Lines form of a batch-match row (`glimpse match --format jsonl`):
///
///     {"error": TEXT|null, "matches": [{"id", "kind", "score", "subtitle", "title", "url"}],
///      "photo": PATH, "status": "matched"|"no_match"|"error"}
///
/// Golden file: `testdata/wire/photo-match.jsonl`.
extension PhotoMatchRecord: Codable {
    enum CodingKeys: String, CodingKey { case photo, status, matches, error }

    /// Decodes one JSON line's object.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let status = Status(rawValue: try c.decode(String.self, forKey: .status)) else {
            throw DecodingError.dataCorruptedError(forKey: .status, in: c, debugDescription: "unknown status")
        }
        self.init(photo: try c.decode(String.self, forKey: .photo), status: status,
                  matches: try c.decode([SearchResultRow].self, forKey: .matches), error: try c.decodeIfPresent(String.self, forKey: .error))
    }

    /// Encodes every field (`error` is `null` unless the photo failed).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(photo, forKey: .photo)
        try c.encode(status.rawValue, forKey: .status)
        try c.encode(matches, forKey: .matches)
        try c.encode(error, forKey: .error)
    }
}
