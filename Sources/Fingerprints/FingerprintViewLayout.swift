/// Which sub-regions of an image a ``Fingerprint`` describes: a value, so the evaluation
/// can tune it (issue 4) without touching the code that computes views.
///
/// The first region must be ``ViewRegion/full``. Regions are fractions of the image, so
/// the same layout means the same parts of the picture at any resolution.
public struct FingerprintViewLayout: Sendable, Hashable, Codable {
    /// The regions, full frame first.
    public var regions: [ViewRegion]

    /// Creates a layout; `regions` must start with the full frame, be valid and number at
    /// most 255.
    public init(regions: [ViewRegion]) {
        precondition(regions.first == .full, "a layout starts with the full frame")
        precondition(regions.count <= 255 && regions.allSatisfy(\.isValid), "layout regions must be valid, at most 255")
        self.regions = regions
    }

    /// A centred square-ish crop keeping `fraction` of the width and of the height.
    public static func centre(_ fraction: Float) -> ViewRegion {
        ViewRegion(x: (1 - fraction) / 2, y: (1 - fraction) / 2, width: fraction, height: fraction)
    }

    /// The four corner crops keeping `fraction` of each side: top-left, top-right,
    /// bottom-left, bottom-right.
    public static func corners(_ fraction: Float) -> [ViewRegion] {
        let far = 1 - fraction
        return [ViewRegion(x: 0, y: 0, width: fraction, height: fraction),
                ViewRegion(x: far, y: 0, width: fraction, height: fraction),
                ViewRegion(x: 0, y: far, width: fraction, height: fraction),
                ViewRegion(x: far, y: far, width: fraction, height: fraction)]
    }

    /// Only the full frame.
    public static let fullFrame = FingerprintViewLayout(regions: [.full])

    /// Default for catalog images (7 views): the full frame; centre crops keeping 75 % and
    /// 50 % of each side; the four corner crops keeping 60 % of each side. A query that is
    /// a crop of a catalog image lands near the view it mostly overlaps.
    public static let catalog = FingerprintViewLayout(regions: [.full, centre(0.75), centre(0.5)] + corners(0.6))

    /// Default for queries (3 views): the full frame and centre crops keeping 85 % and 70 %
    /// of each side, so that a catalog image shown with a margin of foreign pixels
    /// (screenshot UI) around it still lands near the catalog's full-frame view.
    public static let query = FingerprintViewLayout(regions: [.full, centre(0.85), centre(0.7)])
}
