import Foundation
import PixelBuffers

/// What a person asks of a visual search, validated once for every front door: the region
/// of the image, labels, the page size, the time budget, the lowest score shown and the scan mode. `glimpse query`,
/// `glimpse match` and `POST /v1/search` all build one; they differ only in how they read
/// it (command-line options, query parameters) and in how they name a parameter in an error
/// (``Parameter/optionName``, ``Parameter/queryName``).
///
/// The deadline is the whole budget of one image once its bytes are in memory: decoding,
/// fingerprinting and the scan share it; what decoding leaves goes to the scan (none left:
/// a partial page).
public struct SearchRequest: Sendable, Hashable {
    /// The rectangle searched, in pixels of the upright image or as fractions of it; `nil`: the whole image.
    public var region: DecodeOptions.Region?
    /// Words describing the content (landmarks with these keywords rank higher).
    public var labels: [String]
    /// Results per page (``pageSizes``).
    public var pageSize: Int
    /// The time budget (``deadlineMilliseconds``).
    public var deadline: Duration
    /// Scan every view even when the catalog has a first stage.
    public var exact: Bool
    /// The lowest visual score a landmark needs to be a match (0…1, before label boosts);
    /// `nil`: the calibrated default, ``SimilarityScoring/defaultNoMatchThreshold``. Lower
    /// finds more (and more false matches), higher fewer; docs/ACCURACY.md gives the
    /// false-positive rate and recall each score means.
    public var minimumScore: Double?

    /// Allowed page sizes.
    public static let pageSizes = 1...1000
    /// Allowed deadlines, in milliseconds.
    public static let deadlineMilliseconds = 1...60_000
    /// The deadline when none is given, in milliseconds.
    public static let defaultDeadlineMilliseconds = 500
    /// The page size when none is given.
    public static let defaultPageSize = 10
    /// Allowed minimum scores.
    public static let minimumScores = 0.0...1.0
    /// Most labels, and most bytes per label.
    public static let maximumLabels = 32, maximumLabelBytes = 64

    /// One parameter, for error messages in each front door's own words.
    public enum Parameter: String, Sendable, Hashable, CaseIterable {
        case region, regionFraction, labels, pageSize, deadline, exact, minimumScore

        /// The command-line option (`--page-size`).
        public var optionName: String {
            switch self {
            case .region: "--region"
            case .regionFraction: "--region-fraction"
            case .labels: "--labels"
            case .pageSize: "--page-size"
            case .deadline: "--deadline-ms"
            case .exact: "--exact"
            case .minimumScore: "--min-score"
            }
        }

        /// The HTTP query parameter (`page_size`).
        public var queryName: String {
            switch self {
            case .region: "region"
            case .regionFraction: "region_fraction"
            case .labels: "labels"
            case .pageSize: "page_size"
            case .deadline: "deadline_ms"
            case .exact: "exact"
            case .minimumScore: "min_score"
            }
        }
    }

    /// The parameters as text, as typed on a command line or found in a query string;
    /// `nil`: not given.
    public struct Fields: Sendable, Hashable {
        public var region: String?
        public var regionFraction: String?
        public var labels: String?
        public var pageSize: String?
        public var deadlineMilliseconds: String?
        public var exact: String?
        public var minimumScore: String?

        /// Creates the fields; every one defaults to not given.
        public init(region: String? = nil, regionFraction: String? = nil, labels: String? = nil, pageSize: String? = nil,
                    deadlineMilliseconds: String? = nil, exact: String? = nil, minimumScore: String? = nil) {
            self.region = region
            self.regionFraction = regionFraction
            self.labels = labels
            self.pageSize = pageSize
            self.deadlineMilliseconds = deadlineMilliseconds
            self.exact = exact
            self.minimumScore = minimumScore
        }
    }

    /// A validated request.
    /// - Throws: ``SearchRequestError`` naming the parameter out of its range.
    public init(region: DecodeOptions.Region? = nil, labels: [String] = [], pageSize: Int = SearchRequest.defaultPageSize,
                deadline: Duration = .milliseconds(SearchRequest.defaultDeadlineMilliseconds), exact: Bool = false,
                minimumScore: Double? = nil) throws(SearchRequestError) {
        guard labels.count <= Self.maximumLabels, labels.allSatisfy({ $0.utf8.count <= Self.maximumLabelBytes }) else {
            throw SearchRequestError(.labels, "at most \(Self.maximumLabels) labels of at most \(Self.maximumLabelBytes) bytes each")
        }
        guard Self.pageSizes.contains(pageSize) else {
            throw SearchRequestError(.pageSize, "must be a whole number in \(Self.pageSizes.lowerBound)…\(Self.pageSizes.upperBound); got \(pageSize)")
        }
        let milliseconds = Int(deadline / .milliseconds(1))
        guard deadline >= .milliseconds(Self.deadlineMilliseconds.lowerBound), deadline <= .milliseconds(Self.deadlineMilliseconds.upperBound) else {
            throw SearchRequestError(.deadline, "must be a whole number of milliseconds in \(Self.deadlineMilliseconds.lowerBound)…\(Self.deadlineMilliseconds.upperBound); got \(milliseconds)")
        }
        if let minimumScore, !Self.minimumScores.contains(minimumScore) {
            throw SearchRequestError(.minimumScore, "must be a number in 0…1; got \(minimumScore)")
        }
        self.region = region
        self.labels = labels
        self.pageSize = pageSize
        self.deadline = deadline
        self.exact = exact
        self.minimumScore = minimumScore
    }

    /// Parses and validates the text form of every parameter.
    ///
    /// Grammar: `region` is `x,y,w,h`, whole pixels of the upright image, x,y ≥ 0, w,h > 0;
    /// `regionFraction` is `x,y,w,h` in 0…1, w,h > 0 (not both); `labels` is comma-separated
    /// (blank entries dropped); `pageSize` and `deadlineMilliseconds` are whole numbers;
    /// `exact` is `true` or `false`; `minimumScore` a number in 0…1 (`0.35`).
    ///
    /// - Parameter defaultDeadlineMilliseconds: the deadline when none is given (a server's setting).
    /// - Throws: ``SearchRequestError`` naming the parameter and what is wrong with it.
    /// - Complexity: O(length of the fields).
    public init(parsing fields: Fields, defaultDeadlineMilliseconds: Int = SearchRequest.defaultDeadlineMilliseconds) throws(SearchRequestError) {
        if fields.region != nil && fields.regionFraction != nil {
            throw SearchRequestError(.region, "give either a region in pixels or a region in fractions, not both", also: .regionFraction)
        }
        let region: DecodeOptions.Region?
        if let text = fields.region {
            do { region = try DecodeOptions.Region(pixelsText: text) } catch { throw SearchRequestError(.region, error.reason) }
        } else if let text = fields.regionFraction {
            do { region = try DecodeOptions.Region(fractionsText: text) } catch { throw SearchRequestError(.regionFraction, error.reason) }
        } else {
            region = nil
        }
        let labels = (fields.labels ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let pageSize = try Self.integer(fields.pageSize, .pageSize, default: Self.defaultPageSize, in: Self.pageSizes)
        let deadline = try Self.integer(fields.deadlineMilliseconds, .deadline, default: defaultDeadlineMilliseconds, in: Self.deadlineMilliseconds)
        let exact: Bool
        switch fields.exact {
        case nil, "false": exact = false
        case "true": exact = true
        case let other?: throw SearchRequestError(.exact, "must be true or false; got '\(other.prefix(80))'")
        }
        var minimumScore: Double?
        if let text = fields.minimumScore {
            guard text.utf8.count <= 40, let value = Double(text), Self.minimumScores.contains(value) else {
                throw SearchRequestError(.minimumScore, "must be a number in 0…1 such as 0.35; got '\(text.prefix(40))'")
            }
            minimumScore = value
        }
        try self.init(region: region, labels: labels, pageSize: pageSize, deadline: .milliseconds(deadline), exact: exact,
                      minimumScore: minimumScore)
    }

    private static func integer(_ text: String?, _ parameter: Parameter, default value: Int, in range: ClosedRange<Int>) throws(SearchRequestError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw SearchRequestError(parameter, "must be a whole number in \(range.lowerBound)…\(range.upperBound); got '\(text.prefix(40))'")
        }
        return number
    }
}

/// A refused ``SearchRequest``: which parameter, and why, in words that fit every front door.
public struct SearchRequestError: Error, Sendable, Hashable {
    /// The parameter refused.
    public var parameter: SearchRequest.Parameter
    /// A second parameter, when the two conflict.
    public var other: SearchRequest.Parameter?
    /// What is wrong with it (without its name).
    public var reason: String

    init(_ parameter: SearchRequest.Parameter, _ reason: String, also other: SearchRequest.Parameter? = nil) {
        self.parameter = parameter
        self.reason = reason
        self.other = other
    }

    /// The message with the parameter named as the front door names it
    /// (`\.optionName` for the CLI, `\.queryName` over HTTP). O(message).
    public func message(naming name: (SearchRequest.Parameter) -> String) -> String {
        if let other { return "\(name(parameter)), \(name(other)): \(reason)" }
        return "\(name(parameter)) \(reason)"
    }
}
