/// Which sub-regions of an image a ``Fingerprint`` describes: a value, so the evaluation
/// can tune it (issue 4) without touching the code that computes views.
///
/// Three kinds of views, in this order in the fingerprint (see ``viewRegions``):
/// 1. ``regions``, hashed at the working resolution (the first must be ``ViewRegion/full``);
/// 2. right after each of them, that view in each of ``orientations`` (for queries: a
///    rotated or flipped photo of a catalog image meets the catalog's upright views),
///    derived from the view's own transforms at almost no cost (PDQ's dihedral variants,
///    pHash by DCT sign flips and transposes, aHash and dHash by bit permutation);
/// 3. ``coarseRegions``, hashed from the working luma area-averaged to at most
///    ``coarseSize`` pixels per side, so each costs O(coarseSize²) instead of
///    O(workingSize²); their colour histograms still come from the working image;
/// 4. ``tilts``: the whole frame rectified under each perspective hypothesis
///    (``ViewTilt``), from the working luma area-averaged to at most ``tiltSize`` pixels per
///    side; each one's colour histogram is counted over the sheet it assumes
///    (``ViewTilt/sheetRegion(aspect:)``) in the working image.
///
/// Regions are fractions of the image, so the same layout means the same parts of the
/// picture at any resolution.
public struct FingerprintViewLayout: Sendable, Hashable, Codable {
    /// Regions hashed at the working resolution, full frame first.
    public var regions: [ViewRegion]
    /// Orientations (never ``Dihedral/original``) in which each of ``regions`` is also
    /// described, right after it.
    public var orientations: [Dihedral]
    /// Regions hashed at the coarse resolution (``coarseSize``), after the others.
    public var coarseRegions: [ViewRegion]
    /// Largest side, in pixels, of the plane ``coarseRegions`` are hashed from.
    public var coarseSize: Int
    /// Vignettes undone, under each of which the whole frame is also described (from the
    /// plane of ``tiltSize``, after the coarse regions).
    public var vignettes: [ViewVignette]
    /// Perspective hypotheses under which the whole frame is also described, last.
    public var tilts: [ViewTilt]
    /// Largest side, in pixels, of the plane the ``tilts`` are rectified from and the
    /// ``vignettes`` undone on, and at which those views are hashed.
    public var tiltSize: Int
    /// Which generation of Glimpse's view layouts this is, stored with every fingerprint
    /// (``Fingerprint/layoutVersion``) so that a catalog indexed with an older layout is
    /// re-fingerprinted by `glimpse index`. ``catalogVersion`` for Glimpse's own layouts,
    /// ``unversioned`` (0) for custom ones.
    public var version: UInt16

    /// Version of a layout made by hand (never compared as outdated by anything).
    public static let unversioned: UInt16 = 0
    /// Version of the default layouts (``catalog``, ``query``) of this build. History:
    /// 1 = 31 catalog views (full, centre 75 % and 50 %, four 60 % corners, 5×5 grid of
    /// 75 % windows), the format that carried no version (read back as 1);
    /// 2 = the same views, but JPEGs (and WebPs) are decoded at the smallest DCT scale whose
    /// short side is at least ``ImageFingerprinter/decodeShortSide`` (192) and long side at
    /// least ``ImageFingerprinter/decodeLongSide`` (320) pixels, instead of a short side of
    /// the working size (512): a 640×480 JPEG is decoded at 1/2, a 1080p one at 1/4, a
    /// 12 MP one at 1/8 (issue 15: small images as cheap as the peers);
    /// 3 = the same views, the coarse ones hashed from a plane of at most 85 pixels per side
    /// instead of 128, so that each 75 % window is at most 64 pixels per side and PDQ's 64×64
    /// decimation no longer drops a third of its pixels: their PDQ without the Jarosz filter
    /// (its window is 1 there) and with the decimation folded into the DCT
    /// (``PDQHasher/hashFolded(luma:)``). Cheaper, and crops are found more often (issue 15).
    public static let catalogVersion: UInt16 = 3

    /// Creates a layout; `regions` must start with the full frame, every region must be
    /// valid, `orientations` must not hold ``Dihedral/original`` nor repeat, there are at
    /// most 255 views and `coarseSize` and `tiltSize` are at least 32.
    public init(regions: [ViewRegion], orientations: [Dihedral] = [], coarseRegions: [ViewRegion] = [], coarseSize: Int = 128,
                vignettes: [ViewVignette] = [], tilts: [ViewTilt] = [], tiltSize: Int = 128,
                version: UInt16 = FingerprintViewLayout.unversioned) {
        precondition(regions.first == .full, "a layout starts with the full frame")
        precondition(!orientations.contains(.original) && Set(orientations).count == orientations.count,
                     "orientations are the extra ones, each once")
        precondition(regions.count * (1 + orientations.count) + coarseRegions.count + vignettes.count + tilts.count <= 255
                     && (regions + coarseRegions).allSatisfy(\.isValid), "layout regions must be valid, at most 255 views")
        precondition(coarseSize >= 32 && tiltSize >= 32, "coarse and tilted views need at least 32 pixels per side")
        self.regions = regions
        self.orientations = orientations
        self.coarseRegions = coarseRegions
        self.coarseSize = coarseSize
        self.vignettes = vignettes
        self.tilts = tilts
        self.tiltSize = tiltSize
        self.version = version
    }

    /// The region of every view in fingerprint order (an oriented view's region is where
    /// its region lies in the transformed image, ``Dihedral/transform(_:)``; a tilt view's is
    /// the frame less its margin, ``ViewTilt/sheetRegion(aspect:)``, for a square frame: see
    /// ``viewRegions(aspect:)``). O(views).
    public var viewRegions: [ViewRegion] { viewRegions(aspect: 1) }

    /// ``viewRegions`` of a frame whose width over height is `aspect` (only the tilt views'
    /// regions depend on it). O(views).
    public func viewRegions(aspect: Double) -> [ViewRegion] {
        regions.flatMap { region in [region] + orientations.map { $0.transform(region) } } + coarseRegions
            + vignettes.map { _ in ViewRegion.full } + tilts.map { $0.sheetRegion(aspect: aspect) }
    }

    /// This layout without its ``tilts``: the same views but the tilt views, which come last
    /// (a fingerprint of `withoutTilts` is a prefix of one of this layout). What benchmarks
    /// and tests compare the tilt views against. O(regions).
    public var withoutTilts: FingerprintViewLayout {
        var layout = self
        layout.tilts = []
        return layout
    }

    /// This layout without its hypothesis views (``vignettes`` and ``tilts``): the views of its
    /// regions only, each in its orientations (the 24-view query). What benchmarks and tests
    /// measure the hypothesis views against. O(regions).
    public var withoutHypothesisViews: FingerprintViewLayout {
        var layout = withoutTilts
        layout.vignettes = []
        return layout
    }

    /// Number of views a fingerprint of this layout has.
    public var viewCount: Int { regions.count * (1 + orientations.count) + coarseRegions.count + vignettes.count + tilts.count }

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

    /// Windows keeping `fraction` of each side on a `steps`×`steps` grid of positions
    /// spread evenly from one edge to the other (row by row, top-left first). With
    /// `steps` = 5 and `fraction` = 0.75 the stride is 1/16 of the side.
    public static func grid(_ fraction: Float, steps: Int) -> [ViewRegion] {
        precondition(steps >= 2, "a grid has at least 2 positions per side")
        let stride = (1 - fraction) / Float(steps - 1)
        return (0..<steps).flatMap { row in
            (0..<steps).map { column in
                ViewRegion(x: Float(column) * stride, y: Float(row) * stride, width: fraction, height: fraction)
            }
        }
    }

    /// Only the full frame.
    public static let fullFrame = FingerprintViewLayout(regions: [.full])

    /// Default for catalog images (31 views).
    /// - At the working resolution (7): the full frame; centre crops keeping 75 % and 50 % of each
    ///   side; the four corner crops keeping 60 % of each side.
    /// - Coarse (24, from a plane of at most 85 px per side, so each window is at most 64
    ///   pixels per side and its PDQ is folded, ``PDQHasher/hashFolded(luma:)``): windows
    ///   keeping 75 % of each side on a 5×5 grid (stride 1/16 of the side), except the centre
    ///   one, already above. A query that is an off-centre crop of a catalog image lands
    ///   within 1/32 of a side of one window.
    public static let catalog = FingerprintViewLayout(
        regions: [.full, centre(0.75), centre(0.5)] + corners(0.6),
        coarseRegions: grid(0.75, steps: 5).filter { $0 != centre(0.75) },
        coarseSize: 85, version: catalogVersion)

    /// Default for queries: ``query(orientations:)`` with every orientation, the vignette view
    /// and the tilt views (50 views).
    public static let query = queryLayout(.all)

    /// Glimpse's query layout: the full frame and centre crops keeping 85 % and 70 % of each
    /// side, so that a catalog image shown with a margin of foreign pixels (screenshot UI)
    /// around it still lands near the catalog's full-frame view; each of them also in the
    /// extra orientations `orientations` asks for (derived, almost free): 3 views upright,
    /// 6 with the mirror, 24 with all eight orientations; then the whole frame with the
    /// ``queryVignettes`` undone (1) and under the 25 ``queryTilts`` (50 views in all by default).
    public static func query(orientations: QueryOrientations) -> FingerprintViewLayout {
        queryLayout(orientations)
    }

    /// The perspective hypotheses of Glimpse's query layouts (``ViewTilt``): a print or a
    /// screen photographed at an angle. Rings of eight directions at 12° of tilt with the sheet
    /// 4 % of the frame's longer side inside the selection, and at 20° with the sheet inside
    /// the selection's plain border (``PlainBorder``; 2 % where there is none) and with 6 %
    /// (24 views), and one view of the sheet's outline found inside the plain border
    /// (``SheetQuadrilateral``: the tilt undone exactly; the border's box, untilted, when no
    /// outline is found; the frame less 2 % without a border), hashed from a plane of at most 32 pixels per side (as accurate as 64 in the
    /// evaluation, at about 10 µs a view instead of 39). Chosen with `glimpse eval`
    /// (docs/ACCURACY.md, "Pictures taken at an angle"): one ring at 20° and one margin found
    /// half of the 20° keystones, a second margin all but the narrowest pictures, the 12° ring
    /// every 10° one; a second margin at 12° found nothing more; the plain border one narrow
    /// picture more and lost none; the outline the two narrowest (1:8 and 1:4) and lost none.
    public static let queryTilts: [ViewTilt] = ViewTilt.ring(degrees: 12, margin: 0.04)
        + ViewTilt.ring(degrees: 20, margin: 0.02, fitsPlainBorder: true) + ViewTilt.ring(degrees: 20, margin: 0.06)
        + [ViewTilt(down: 0, right: 0, margin: 0.02, fitsPlainBorder: true, rectifiesQuadrilateral: true)]

    /// The vignettes Glimpse's query layouts undo (``ViewVignette``): one taking 40 % of the
    /// brightness at the corners, the middle of what "vintage" photo filters take (the
    /// evaluation's `sepia-vignette` takes 30–50 %). Chosen with `glimpse eval`: a sepia copy
    /// whose structure the vignette had moved (PDQ 22, dHash 21 of 64) scored 0.36 against its
    /// original, 0.50 with the vignette undone at 0.3 or 0.4 and 0.43 at 0.5.
    public static let queryVignettes: [ViewVignette] = [ViewVignette(strength: 0.4)]

    private static func queryLayout(_ orientations: QueryOrientations) -> FingerprintViewLayout {
        FingerprintViewLayout(regions: [.full, centre(0.85), centre(0.7)], orientations: orientations.extraTransforms,
                              vignettes: queryVignettes, tilts: queryTilts, tiltSize: 32, version: catalogVersion)
    }
}
