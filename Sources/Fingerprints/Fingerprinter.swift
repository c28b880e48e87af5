#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PixelBuffers

/// Computes ``Fingerprint``s: the entry point from pixels to the codes the index searches.
///
/// Cost model: the source buffer is read exactly once, by an area-averaging resample to
/// a working image of at most ``workingSize`` pixels per side (each side shrunk
/// independently, never enlarged — as PDQ's own photo hasher resizes to 512×512 before
/// hashing), fused with the luma and colour-bin computation so that only a luma plane and
/// a byte plane of histogram bins are stored. Every view is then cut from those planes
/// (in place, no copies), so a view costs O(workingSize²) whatever the source resolution;
/// the histograms of all views together cost one pass over the bin plane. For a source no larger than the
/// working size the full-frame PDQ hash equals the reference PDQ of the same pixels.
///
/// Per view: PDQ hash and quality (``PDQHasher``; quality forced to 0 for flat views, see
/// ``flatContrast``), aHash, dHash, pHash
/// (``PerceptualHashes``) from the working luma, and the colour histogram
/// (``ColorHistogram``) from the working RGB.
public struct Fingerprinter: Sendable {
    /// Views computed by ``fingerprint(of:)`` (catalog side).
    public var layout: FingerprintViewLayout
    /// Views computed by ``queryFingerprint(of:)`` (query side).
    public var queryLayout: FingerprintViewLayout
    /// Largest side of the working image, in pixels.
    public var workingSize: Int
    /// Instruction set of every kernel; results are identical on every set.
    public var instructionSet: InstructionSet

    /// Creates a fingerprinter.
    public init(layout: FingerprintViewLayout = .catalog, queryLayout: FingerprintViewLayout = .query,
                workingSize: Int = 512, using isa: InstructionSet = .best) {
        precondition(workingSize >= 32, "working size must be at least 32 pixels")
        self.layout = layout
        self.queryLayout = queryLayout
        self.workingSize = workingSize
        self.instructionSet = isa
    }

    /// Contrast (standard deviation of the 32×32 area-averaged luma, in 0…255 levels) below
    /// which a view is flat and gets quality 0 whatever PDQ's gradient metric says. PDQ's
    /// metric alone scores unblurred sensor noise (±2 levels on a 128 px view) around 20;
    /// averaging to 32×32 brings such noise down to about 0.35. Measured on `testdata/`:
    /// the flattest real views are the lower crops of `grossmugl.jpg`, uniform grass at
    /// 1.1–1.3, which are treated as blank too; the next flattest view is at 3.3.
    public static let flatContrast = 2.0

    /// Every view of ``layout``. O(source pixels + views × workingSize²).
    public func fingerprint(of buffer: PixelBuffer) -> Fingerprint {
        fingerprint(of: buffer, layout: layout)
    }

    /// The views of ``queryLayout`` (by default the full frame and two centre crops, each in all eight orientations).
    public func queryFingerprint(of buffer: PixelBuffer) -> Fingerprint {
        fingerprint(of: buffer, layout: queryLayout)
    }

    /// The views of `layout`, in ``FingerprintViewLayout/viewRegions`` order. Every view's
    /// histogram comes from the working planes' shared cells (coarse views included, over
    /// the same fractional region; a tilt view's over its assumed sheet). O(source pixels +
    /// regions × workingSize² + coarse regions × coarseSize² + tilts × tiltSize²).
    public func fingerprint(of buffer: PixelBuffer, layout: FingerprintViewLayout) -> Fingerprint {
        fingerprint(WorkingPlanes(buffer, width: min(buffer.width, workingSize), height: min(buffer.height, workingSize),
                                  using: instructionSet), layout: layout)
    }

    /// Decodes image bytes with `options` and fingerprints the result with `layout`
    /// (default ``layout``): the same fingerprint as decoding with
    /// ``ImageDecoder/decode(_:source:options:)`` and calling ``fingerprint(of:layout:)``.
    ///
    /// The pixels go from the decoder to the working image row by row
    /// (``ImageDecoder/decodeRows(_:source:options:into:)``): a whole, non-interlaced PNG or a
    /// whole upright JPEG is never stored whole (a 1080p PNG saves an 8 MB buffer and a pass
    /// over it; a JPEG's rows are still in cache when the planes read them); anything else is
    /// decoded into a buffer first.
    public func fingerprint<Bytes: ContiguousBytes>(
        decoding bytes: Bytes, source: String = "<memory>", options: DecodeOptions = DecodeOptions(),
        layout: FingerprintViewLayout? = nil, decoder: ImageDecoder = ImageDecoder()
    ) throws(DecodeError) -> Fingerprint {
        var builder = WorkingPlanes.Builder(workingSize: workingSize, using: instructionSet)
        _ = try decoder.decodeRows(bytes, source: source, options: options, into: &builder)
        return fingerprint(builder.planes(), layout: layout ?? self.layout)
    }

    /// Reads the file at `path` and fingerprints it while decoding; see
    /// ``fingerprint(decoding:source:options:layout:decoder:)``.
    public func fingerprint(decodingFile path: String, options: DecodeOptions = DecodeOptions(),
                            layout: FingerprintViewLayout? = nil, decoder: ImageDecoder = ImageDecoder()) throws(DecodeError) -> Fingerprint {
        var builder = WorkingPlanes.Builder(workingSize: workingSize, using: instructionSet)
        _ = try decoder.decodeRows(file: path, options: options, into: &builder)
        return fingerprint(builder.planes(), layout: layout ?? self.layout)
    }

    /// The views of `layout` from the working planes.
    private func fingerprint(_ planes: WorkingPlanes, layout: FingerprintViewLayout) -> Fingerprint {
        let luma = planes.luma
        func rect(_ region: ViewRegion, _ plane: FloatImage) -> PixelRect {
            let b = region.pixelBounds(width: plane.width, height: plane.height)
            return PixelRect(x: b.x, y: b.y, width: b.width, height: b.height)
        }
        let aspect = Double(luma.width) / Double(luma.height)
        let plainBorder = layout.tilts.contains(where: \.fitsPlainBorder) ? PlainBorder.sheet(in: luma) : nil
        let outline = plainBorder.flatMap { box in
            layout.tilts.contains(where: \.rectifiesQuadrilateral) ? SheetQuadrilateral(in: luma, box: box) : nil
        }
        let sheets = layout.tilts.map { $0.sheetRegion(aspect: aspect, plainBorder: plainBorder) }
        let histograms = planes.histograms(of: (layout.regions + layout.coarseRegions + sheets).map { rect($0, luma) })
        var workspace = PDQHasher.Workspace()
        var weights: [PerceptualHashes.CodeWeights] = []   // per region size, built once
        var views: [FingerprintView] = []
        views.reserveCapacity(layout.viewCount)
        let rects = layout.regions.map { rect($0, luma) }
        var bands = Bands(rects)
        var rowBands = RowBands(rects, strips: planeStrips(luma))
        let hasher = PDQHasher(using: instructionSet)
        for (i, region) in layout.regions.enumerated() {
            let pdq = hasher.hash(luma: luma, region: rects[i], band: rowBands.band(luma, rects[i], &workspace, instructionSet),
                                  strips: rowBands.strips, workspace: &workspace)
            appendViews(luma, region, rects[i], pdq, histograms[i], &weights, &bands, orientations: layout.orientations, to: &views)
        }
        if !layout.coarseRegions.isEmpty {
            let coarse = ImageKernels.areaResample(luma, width: min(luma.width, layout.coarseSize),
                                                   height: min(luma.height, layout.coarseSize), using: instructionSet)
            let coarseRects = layout.coarseRegions.map { rect($0, coarse) }
            var coarseBands = Bands(coarseRects)
            var folded = FoldedRegions()
            // Regions too large to fold (over 64 pixels: custom layouts with a coarse size above
            // 85) take the Jarosz filter like the working-resolution views.
            let filtered = coarseRects.filter { !PDQHasher.isFolded(width: $0.width, height: $0.height) }
            var coarseRowBands = RowBands(filtered, strips: filtered.isEmpty ? nil : planeStrips(coarse))
            for (k, region) in layout.coarseRegions.enumerated() {
                let r = coarseRects[k]
                let pdq: PDQHasher.Result
                if PDQHasher.isFolded(width: r.width, height: r.height) {
                    let (columns, basis) = folded.columns(coarse, r, instructionSet)
                    pdq = hasher.hashFolded(luma: coarse, region: r, columns: columns, basis: basis)
                } else {
                    pdq = hasher.hash(luma: coarse, region: r, band: coarseRowBands.band(coarse, r, &workspace, instructionSet),
                                      strips: coarseRowBands.strips, workspace: &workspace)
                }
                appendViews(coarse, region, r, pdq, histograms[layout.regions.count + k], &weights, &coarseBands,
                            orientations: [], to: &views)
            }
        }
        if !layout.vignettes.isEmpty || !layout.tilts.isEmpty {
            // The hypothesis views: the whole frame shrunk to at most `tiltSize` pixels a side,
            // with a vignette undone or rectified under a tilt. Every such plane has the small
            // plane's size: one folded basis serves them all.
            let small = ImageKernels.areaResample(luma, width: min(luma.width, layout.tiltSize),
                                                  height: min(luma.height, layout.tiltSize), using: instructionSet)
            let r = small.bounds
            let basis = PDQHasher.isFolded(width: r.width, height: r.height) ? PDQHasher.FoldedBasis(width: r.width, height: r.height) : nil
            func append(_ plane: FloatImage, _ region: ViewRegion, _ histogram: ColorHistogram) {
                var planeBands = Bands([r])
                let pdq: PDQHasher.Result
                if let basis {
                    let columns = PDQHasher.FoldedColumns(luma: plane, x: 0, basis: basis, using: instructionSet)
                    pdq = hasher.hashFolded(luma: plane, region: r, columns: columns, basis: basis)
                } else {
                    pdq = hasher.hash(luma: plane, region: r, workspace: &workspace)
                }
                appendViews(plane, region, r, pdq, histogram, &weights, &planeBands, orientations: [], to: &views)
            }
            // A vignette darkens without moving hues: the full frame's colours, brightened
            // back. Undoing one draws a radial gradient on a flat picture, so the view is no
            // more informative than the full frame it comes from (a flat picture stays unsearchable).
            for vignette in layout.vignettes {
                append(vignette.undone(small, aspect: aspect), .full,
                       vignette.undoneHistogram(bins: planes.bins, width: luma.width, height: luma.height, aspect: aspect))
                views[views.count - 1].quality = min(views[views.count - 1].quality, views[0].quality)
            }
            let first = layout.regions.count + layout.coarseRegions.count   // histograms: regions, coarse, sheets
            for (k, tilt) in layout.tilts.enumerated() {
                append(tilt.rectified(small, aspect: aspect, sheet: sheets[k], quadrilateral: outline, using: instructionSet),
                       sheets[k], histograms[first + k])
            }
        }
        return Fingerprint(views: views, layoutVersion: layout.version)
    }

    /// The folded PDQ products of the coarse regions (``PDQHasher/hashFolded(luma:)``): one
    /// ``PDQHasher/FoldedBasis`` per region size and one ``PDQHasher/FoldedColumns`` per
    /// (left, width), built when first needed and shared by every region with those columns
    /// (the five columns of the coarse grid serve its 24 windows). Short arrays searched in
    /// order, as ``Bands``.
    private struct FoldedRegions {
        var bases: [PDQHasher.FoldedBasis] = []
        var columns: [PDQHasher.FoldedColumns] = []

        mutating func columns(_ luma: FloatImage, _ r: PixelRect,
                              _ isa: InstructionSet) -> (PDQHasher.FoldedColumns, PDQHasher.FoldedBasis) {
            let basis = Fingerprinter.cached(&bases, where: { $0.width == r.width && $0.height == r.height }) {
                PDQHasher.FoldedBasis(width: r.width, height: r.height)
            }
            return (Fingerprinter.cached(&columns, where: { $0.x == r.x && $0.width == r.width }) {
                PDQHasher.FoldedColumns(luma: luma, x: r.x, basis: basis, using: isa)
            }, basis)
        }
    }

    /// The first element of `cache` that `matches`, else `make()`'s, appended: the short
    /// per-size and per-column caches of one fingerprint. O(cache count).
    private static func cached<T>(_ cache: inout [T], where matches: (T) -> Bool, make: () -> T) -> T {
        if let known = cache.first(where: matches) { return known }
        let made = make()
        cache.append(made)
        return made
    }

    /// A plane's strips for PDQ's first row filters, where they pay (see
    /// ``PDQHasher/PlaneStrips/isWorthBuilding(for:)``).
    private func planeStrips(_ luma: FloatImage) -> PDQHasher.PlaneStrips? {
        PDQHasher.PlaneStrips.isWorthBuilding(for: instructionSet) ? PDQHasher.PlaneStrips(luma: luma, using: instructionSet) : nil
    }

    /// The working image: the source area-averaged to at most ``workingSize`` per side
    /// (4 channels for RGBA8 sources, 1 for Gray8) and its luma. ``fingerprint(of:)`` computes
    /// the same values without storing the colour image (see `WorkingPlanes`).
    public func workingImage(of buffer: PixelBuffer) -> (color: FloatImage, luma: FloatImage) {
        let color = ImageKernels.areaResample(buffer, width: min(buffer.width, workingSize),
                                              height: min(buffer.height, workingSize), using: instructionSet)
        return (color, ImageKernels.luma(of: color, using: instructionSet))
    }

    /// The vertical passes of the aHash/dHash/pHash resamples, shared by the regions of one
    /// plane that cover the same rows: one ``PerceptualHashes/CodeBand`` per (top, height),
    /// over the union of those regions' columns, built when first needed. A layout has a
    /// handful of distinct row spans, so they are kept in a short array searched in order
    /// (a dictionary's hashing cost more than the search).
    private struct Bands {
        struct Span {
            let y: Int, height: Int
            var x0: Int, x1: Int
            var built: PerceptualHashes.CodeBand?
        }
        var spans: [Span] = []

        /// The span holding `r`'s rows, if any.
        func index(of r: PixelRect) -> Int? { spans.firstIndex { $0.y == r.y && $0.height == r.height } }

        init(_ rects: [PixelRect]) {
            for r in rects {
                if let i = index(of: r) {
                    spans[i].x0 = min(spans[i].x0, r.x)
                    spans[i].x1 = max(spans[i].x1, r.x + r.width)
                } else {
                    spans.append(Span(y: r.y, height: r.height, x0: r.x, x1: r.x + r.width, built: nil))
                }
            }
        }

        mutating func band(_ luma: FloatImage, _ r: PixelRect, _ k: PerceptualHashes.CodeWeights,
                           _ isa: InstructionSet) -> PerceptualHashes.CodeBand {
            guard let i = index(of: r) else {
                return PerceptualHashes.CodeBand(luma: luma, x: r.x, y: r.y, width: r.width, height: r.height, weights: k, using: isa)
            }
            if let b = spans[i].built { return b }
            let s = spans[i]
            let b = PerceptualHashes.CodeBand(luma: luma, x: s.x0, y: r.y, width: s.x1 - s.x0, height: r.height,
                                              weights: k, using: isa)
            spans[i].built = b
            return b
        }
    }

    /// The first Jarosz row filter of PDQ, shared by the regions of one plane with the same
    /// columns (a column of the coarse grid): one ``PDQHasher/RowBand`` per (left, width)
    /// held by two regions or more, over the union of their rows, built when first needed
    /// (a short array searched in order, as ``Bands``). Every band, and every region without
    /// one, reads its rows from the plane's ``PDQHasher/PlaneStrips`` when there are some
    /// (the plane transposed once instead of once per band or region).
    private struct RowBands {
        struct Span {
            let x: Int, width: Int
            var y0: Int, y1: Int, count: Int
            var built: PDQHasher.RowBand?
        }
        var spans: [Span] = []
        /// The plane's strips (nil on the portable path).
        let strips: PDQHasher.PlaneStrips?

        /// The span holding `r`'s columns, if any.
        func index(of r: PixelRect) -> Int? { spans.firstIndex { $0.x == r.x && $0.width == r.width } }

        init(_ rects: [PixelRect], strips: PDQHasher.PlaneStrips?) {
            self.strips = strips
            for r in rects where r.width >= PDQHasher.minimumSide && r.height >= PDQHasher.minimumSide {
                if let i = index(of: r) {
                    spans[i].y0 = min(spans[i].y0, r.y)
                    spans[i].y1 = max(spans[i].y1, r.y + r.height)
                    spans[i].count += 1
                } else {
                    spans.append(Span(x: r.x, width: r.width, y0: r.y, y1: r.y + r.height, count: 1, built: nil))
                }
            }
        }

        mutating func band(_ luma: FloatImage, _ r: PixelRect, _ workspace: inout PDQHasher.Workspace,
                           _ isa: InstructionSet) -> PDQHasher.RowBand? {
            guard let i = index(of: r), spans[i].count >= 2 else { return nil }
            if let b = spans[i].built { return b }
            let s = spans[i]
            let b = PDQHasher.RowBand(luma: luma, x: r.x, y: s.y0, width: r.width, height: s.y1 - s.y0, strips: strips,
                                      workspace: &workspace, using: isa)
            spans[i].built = b
            return b
        }
    }

    /// Appends one view of a luma plane (the working one or the coarse one), whose PDQ is
    /// `pdq`, to `views`, followed by the same view in each of `orientations`, derived from
    /// the same transforms.
    private func appendViews(_ luma: FloatImage, _ region: ViewRegion, _ rect: PixelRect, _ pdq: PDQHasher.Result,
                             _ histogram: ColorHistogram, _ weights: inout [PerceptualHashes.CodeWeights],
                             _ bands: inout Bands, orientations: [Dihedral], to views: inout [FingerprintView]) {
        let k = Self.cached(&weights, where: { $0.width == rect.width && $0.height == rect.height }) {
            PerceptualHashes.CodeWeights(width: rect.width, height: rect.height)
        }
        let codes = PerceptualHashes.codes(band: bands.band(luma, rect, k, instructionSet), region: rect, weights: k,
                                           using: instructionSet)
        let dct = PerceptualHashes.dctCoefficients(block32x32: codes.block, using: instructionSet)
        let flat = PerceptualHashes.contrast(codes.block, isBelow: Self.flatContrast, using: instructionSet)
        let pHash = PerceptualHashes.dctHash(coefficients: dct, using: instructionSet)
        let view = FingerprintView(
            region: region,
            aHash: codes.aHash,
            dHash: codes.dHash,
            pHash: pHash,
            pdq: pdq.hash, quality: flat ? 0 : pdq.quality,
            histogram: histogram)
        views.append(view)
        guard !orientations.isEmpty else { return }
        // Equal to pdq.hash(for:) and dctHash(coefficients: transform.transformDCT(dct, side: 8)), with 4 medians instead of 8.
        var oriented = OrientedDCTHashes(pdq: pdq.coefficients, pdqHash: pdq.hash, pHash: dct, pHashValue: pHash)
        for transform in orientations {
            views.append(view.transformed(by: transform, pdq: oriented.pdq(for: transform), pHash: oriented.pHash(for: transform)))
        }
    }
}
