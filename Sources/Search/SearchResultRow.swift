/// One result flattened for output (a table row, a JSON object, a CSV cell group): what a
/// person needs to recognise and open it. Same fields for landmarks and collections.
public struct SearchResultRow: Sendable, Hashable {
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
    /// The entity's thumbnail image file, if any (not part of ``json``).
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

    /// `{"kind", "id", "title", "subtitle", "score", "url"}` in that order; subtitle may be null.
    public var json: String {
        JSONText.object([
            ("kind", JSONText.string(kind.rawValue)), ("id", JSONText.string(id)), ("title", JSONText.string(title)),
            ("subtitle", JSONText.string(subtitle)), ("score", JSONText.score(score)), ("url", JSONText.string(url)),
        ])
    }
}
