import Catalog

/// One result flattened for output (a table row, a JSON object, a CSV cell group): what a
/// person needs to recognise and open it. Same fields for landmarks and collections.
///
/// JSON (``WireJSON``): `{"id", "kind", "score", "subtitle", "title", "url"}`; `subtitle`
/// may be `null`, `score` has four decimals. Golden file: `testdata/wire/query-page.json`.
public struct SearchResultRow: Sendable, Hashable, Codable {
    /// Landmark or collection.
    public var kind: EntityKind
    /// The entity id.
    public var id: String
    /// Display title.
    public var title: String
    /// Display subtitle (continent, "N landmarks"), if any.
    public var subtitle: String?
    /// Similarity 0…1, higher is better, comparable across queries (see ``SimilarityScoring``).
    public var score: Double
    /// `glimpse://<kind>/<id>`.
    public var url: String
    /// The entity's thumbnail image file, if any (not part of the JSON).
    public var thumbnailPath: String?

    /// Creates a row.
    public init(kind: EntityKind, id: String, title: String, subtitle: String?, score: Double, url: String, thumbnailPath: String? = nil) {
        self.kind = kind
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.score = score
        self.url = url
        self.thumbnailPath = thumbnailPath
    }

    /// The row of a scored search result. O(1).
    public init(_ item: ScoredValue<VisualSearchResult>) {
        let display = item.value.displayRepresentation
        self.init(kind: item.value.kind, id: item.value.reference.id, title: display.title, subtitle: display.subtitle,
                  score: item.score, url: item.value.url, thumbnailPath: display.thumbnailPath)
    }

    /// The row of a landmark with a score. O(1).
    public init(landmark: LandmarkEntity, score: Double) {
        let display = landmark.displayRepresentation
        self.init(kind: .landmark, id: landmark.id, title: display.title, subtitle: display.subtitle,
                  score: score, url: landmark.url, thumbnailPath: display.thumbnailPath)
    }

    enum CodingKeys: String, CodingKey { case kind, id, title, subtitle, score, url }

    /// Decodes the JSON form (the thumbnail path is not part of it).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try c.decode(EntityKind.self, forKey: .kind), id: try c.decode(String.self, forKey: .id),
                  title: try c.decode(String.self, forKey: .title), subtitle: try c.decodeIfPresent(String.self, forKey: .subtitle),
                  score: try c.decode(Double.self, forKey: .score), url: try c.decode(String.self, forKey: .url))
    }

    /// Encodes the JSON form: every field, `subtitle` as `null` when absent, the score
    /// rounded to four decimals.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(subtitle, forKey: .subtitle)
        try c.encode(WireJSON.score(score), forKey: .score)
        try c.encode(url, forKey: .url)
    }

    /// The JSON object on one line. O(1).
    public var json: String { WireJSON.line(self) }
}
