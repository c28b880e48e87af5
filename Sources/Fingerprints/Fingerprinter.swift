/// Computes ``Fingerprint``s: the entry point from pixels to the codes the index searches.
///
/// Cost model: the source buffer is read exactly once, by an area-averaging resample to
/// a working image of at most ``workingSize`` pixels per side (each side shrunk
/// independently, never enlarged — as PDQ's own photo hasher resizes to 512×512 before
/// hashing). Every view is then cut from the working image, so a view costs
/// O(workingSize²) whatever the source resolution. For a source no larger than the
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

    /// The views of ``queryLayout`` (by default the full frame and two centre crops).
    public func queryFingerprint(of buffer: PixelBuffer) -> Fingerprint {
        fingerprint(of: buffer, layout: queryLayout)
    }

    /// The views of `layout`.
    public func fingerprint(of buffer: PixelBuffer, layout: FingerprintViewLayout) -> Fingerprint {
        let working = workingImage(of: buffer)
        return Fingerprint(views: layout.regions.map { view(working, $0) })
    }

    /// The working image: the source area-averaged to at most ``workingSize`` per side
    /// (4 channels for RGBA8 sources, 1 for Gray8) and its luma.
    public func workingImage(of buffer: PixelBuffer) -> (color: FloatImage, luma: FloatImage) {
        let color = ImageKernels.areaResample(buffer, width: min(buffer.width, workingSize),
                                              height: min(buffer.height, workingSize), using: instructionSet)
        return (color, ImageKernels.luma(of: color, using: instructionSet))
    }

    /// One view of a working image.
    func view(_ working: (color: FloatImage, luma: FloatImage), _ region: ViewRegion) -> FingerprintView {
        let luma = working.luma
        let b = region.pixelBounds(width: luma.width, height: luma.height)
        let rect = PixelRect(x: b.x, y: b.y, width: b.width, height: b.height)
        let pdq = PDQHasher(using: instructionSet).hash(luma: luma.cropped(to: rect))
        let block = PerceptualHashes.dctHashBlock(luma: luma, region: rect, using: instructionSet)
        let flat = PerceptualHashes.contrast(block) < Self.flatContrast
        return FingerprintView(
            region: region,
            aHash: PerceptualHashes.averageHash(luma: luma, region: rect, using: instructionSet),
            dHash: PerceptualHashes.differenceHash(luma: luma, region: rect, using: instructionSet),
            pHash: PerceptualHashes.dctHash(block32x32: block, using: instructionSet),
            pdq: pdq.hash, quality: flat ? 0 : pdq.quality,
            histogram: histogram(working.color, rect))
    }

    func histogram(_ color: FloatImage, _ rect: PixelRect) -> ColorHistogram {
        if color.channels == 4 {
            return ColorHistogram(counts: ImageKernels.hsvHistogramCounts(color, region: rect, using: instructionSet))
        }
        // Grey source: every pixel is achromatic, bin min(15, ⌊v/16⌋) as for RGBA.
        var counts = [UInt32](repeating: 0, count: ColorHistogram.binCount)
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                counts[min(15, Int(color[x, y] * 0.0625))] += 1
            }
        }
        return ColorHistogram(counts: counts)
    }
}
