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
}
