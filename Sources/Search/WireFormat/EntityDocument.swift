import Catalog

/// An entity as JSON: `glimpse open --json`, `glimpse export --as json`, and the bodies of
/// `GET /v1/landmarks/{id}`, `GET /v1/collections/{id}` and `GET /v1/entities`.
///
/// Fields: `kind, id, url, title, subtitle, thumbnail`; for a landmark also `description,
/// continent, keywords, location {latitude, longitude}|null, images, collections` (its
/// collections as ``EntitySummary``) and, only when asked for, `image_statistics`; for a
/// collection `landmarks` (its members as ``EntitySummary``). Keys sorted (``WireJSON``).
/// Golden files: `testdata/wire/entity-landmark.json`, `testdata/wire/entity-collection.json`.
public struct EntityDocument: Sendable, Hashable, Codable {
    /// A geographic position in degrees.
    public struct Location: Sendable, Hashable, Codable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
    }

    /// The deferred `image-statistics` property of a landmark.
    public struct ImageStatistics: Sendable, Hashable, Codable {
        /// One reference image's figures.
        public struct Image: Sendable, Hashable, Codable {
            /// The image file.
            public var path: String
            /// Its size in bytes, `nil` when the file is missing.
            public var fileSize: Int64?
            /// Fingerprint views stored.
            public var views: Int
            /// Views informative enough to be searched.
            public var informativeViews: Int
            /// Mean PDQ quality of its views, one decimal.
            public var meanQuality: Double
            /// The most populated colour-histogram bins.
            public var dominantColorBins: [Int]

            enum CodingKeys: String, CodingKey {
                case path, views
                case fileSize = "file_size"
                case informativeViews = "informative_views"
                case meanQuality = "mean_quality"
                case dominantColorBins = "dominant_color_bins"
            }

            /// Encodes every field (`file_size` `null` when missing).
            public func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(path, forKey: .path)
                try c.encode(fileSize, forKey: .fileSize)
                try c.encode(views, forKey: .views)
                try c.encode(informativeViews, forKey: .informativeViews)
                try c.encode(meanQuality, forKey: .meanQuality)
                try c.encode(dominantColorBins, forKey: .dominantColorBins)
            }
        }
        /// Whether at least one view is informative.
        public var searchable: Bool
        /// Per reference image.
        public var images: [Image]
    }

    /// `landmark` or `collection`.
    public var kind: EntityKind
    /// The entity id.
    public var id: String
    /// `glimpse://<kind>/<id>`.
    public var url: String
    /// Display title.
    public var title: String
    /// Display subtitle, if any.
    public var subtitle: String?
    /// The display representation's image file, if any.
    public var thumbnail: String?
    /// Landmark only: its description.
    public var description: String?
    /// Landmark only: its continent.
    public var continent: String?
    /// Landmark only: its keywords.
    public var keywords: [String]?
    /// Landmark only: where it is.
    public var location: Location?
    /// Landmark only: its reference image files.
    public var images: [String]?
    /// Landmark only: the collections holding it.
    public var collections: [EntitySummary]?
    /// Collection only: its landmarks, in order.
    public var landmarks: [EntitySummary]?
    /// Landmark only, when asked for: the deferred image statistics.
    public var imageStatistics: ImageStatistics?

    /// The document of `entity` with its related entities (a landmark's collections, a
    /// collection's landmarks) and, when computed, a landmark's image statistics.
    ///
    /// - Complexity: O(related + images).
    public init(entity: VisualSearchResult, related: [VisualSearchResult], imageStatistics: LandmarkImageStatistics? = nil) {
        let display = entity.displayRepresentation
        kind = entity.kind
        id = entity.reference.id
        url = entity.url
        title = display.title
        subtitle = display.subtitle
        thumbnail = display.thumbnailPath
        let summaries = related.map(EntitySummary.init)
        switch entity {
        case .landmark(let landmark):
            description = landmark.description
            continent = landmark.continent
            keywords = landmark.keywords
            location = landmark.location.map { Location(latitude: $0.latitude, longitude: $0.longitude) }
            images = landmark.referenceImages.map(\.path)
            collections = summaries
            self.imageStatistics = imageStatistics.map { statistics in
                ImageStatistics(searchable: statistics.isSearchable, images: statistics.images.map {
                    .init(path: $0.path, fileSize: $0.fileSize, views: $0.viewCount, informativeViews: $0.informativeViewCount,
                          meanQuality: ($0.meanQuality * 10).rounded() / 10, dominantColorBins: $0.dominantColorBins)
                })
            }
        case .collection:
            landmarks = summaries
        }
    }

    enum CodingKeys: String, CodingKey {
        case kind, id, url, title, subtitle, thumbnail, description, continent, keywords, location, images, collections, landmarks
        case imageStatistics = "image_statistics"
    }

    /// Encodes the common fields always (`subtitle`, `thumbnail` as `null` when absent),
    /// a landmark's fields (`location` `null` when unknown) or a collection's, and
    /// `image_statistics` only when computed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(url, forKey: .url)
        try c.encode(title, forKey: .title)
        try c.encode(subtitle, forKey: .subtitle)
        try c.encode(thumbnail, forKey: .thumbnail)
        switch kind {
        case .landmark:
            try c.encode(description ?? "", forKey: .description)
            try c.encode(continent ?? "", forKey: .continent)
            try c.encode(keywords ?? [], forKey: .keywords)
            try c.encode(location, forKey: .location)
            try c.encode(images ?? [], forKey: .images)
            try c.encode(collections ?? [], forKey: .collections)
            try c.encodeIfPresent(imageStatistics, forKey: .imageStatistics)
        case .collection:
            try c.encode(landmarks ?? [], forKey: .landmarks)
        }
    }

    /// The JSON object on one line. O(fields).
    public var json: String { WireJSON.line(self) }
}

/// A related entity inside an ``EntityDocument``, or one item of `GET /v1/entities`
/// summaries: `{"id", "kind", "subtitle", "title", "url"}`.
public struct EntitySummary: Sendable, Hashable, Codable {
    /// `landmark` or `collection`.
    public var kind: EntityKind
    /// The entity id.
    public var id: String
    /// Display title.
    public var title: String
    /// Display subtitle, if any.
    public var subtitle: String?
    /// `glimpse://<kind>/<id>`.
    public var url: String

    /// The summary of `entity`. O(1).
    public init(_ entity: VisualSearchResult) {
        let display = entity.displayRepresentation
        kind = entity.kind
        id = entity.reference.id
        title = display.title
        subtitle = display.subtitle
        url = entity.url
    }

    /// Encodes every field (`subtitle` `null` when absent).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(subtitle, forKey: .subtitle)
        try c.encode(url, forKey: .url)
    }
}
