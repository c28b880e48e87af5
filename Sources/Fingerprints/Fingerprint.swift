/// Everything Glimpse stores about one image: a small set of ``FingerprintView``s,
/// each the codes of one sub-region (the whole frame, centre crops, corners…).
///
/// The index searches every view, so a query that is a crop of a catalog image (or
/// a catalog image with foreign margins around it) still lands near one view.
/// Which views exist is decided by ``FingerprintViewLayout``.
/// For storage, see ``serialized()`` and ``init(serialized:)``.
public struct Fingerprint: Sendable, Hashable, Codable {
    /// Views in layout order; `views[0]` is always the full frame.
    public var views: [FingerprintView]
    /// Version of the view layout (and view computation) that made these views
    /// (``FingerprintViewLayout/version``): a catalog compares it with the version its
    /// fingerprinter makes today to know which stored fingerprints to recompute.
    /// ``FingerprintViewLayout/unversioned`` (0) for fingerprints made by hand or by a
    /// custom layout.
    public var layoutVersion: UInt16

    /// Creates a fingerprint from its views.
    public init(views: [FingerprintView], layoutVersion: UInt16 = FingerprintViewLayout.unversioned) {
        self.views = views
        self.layoutVersion = layoutVersion
    }

    /// The full-frame view.
    public var full: FingerprintView? { views.first }

    /// Whether at least one view carries enough detail to be matched
    /// (see ``FingerprintView/isInformative``).
    public var isInformative: Bool { views.contains { $0.isInformative } }

    /// The highest PDQ quality (0…100) among the views that cover most of the image (at
    /// least 70 % of each side: the full frame, the catalog's 75 % windows, the query's 85 %
    /// and 70 % crops, in any orientation); 0 without such views. What a search with the
    /// whole image, or a re-encoding or resize of it, can match on: under
    /// ``FingerprintView/minimumSearchableQuality`` only an exact copy finds the image
    /// (a fine texture can still have a detailed half crop, which does not help).
    /// - Complexity: O(views).
    public var wholeImageQuality: Int {
        views.lazy.filter { $0.region.width >= 0.7 && $0.region.height >= 0.7 }.map(\.quality).max() ?? 0
    }
}
