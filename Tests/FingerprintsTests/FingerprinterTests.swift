import InstructionSetTesting
import PixelBuffers
import SyntheticData
import Testing
import Fingerprints
import Foundation

@Suite struct FingerprinterTests {
    @Test(.comparingEveryInstructionSet) func fingerprintsAreIdenticalOnEveryInstructionSet() {
        for buffer in [syntheticPhoto(width: 700, height: 530, seed: 1), syntheticPhoto(width: 90, height: 200, seed: 2)] {
            let portable = Fingerprinter(using: .portable).fingerprint(of: buffer)
            for isa in supportedInstructionSets {
                #expect(Fingerprinter(using: isa).fingerprint(of: buffer) == portable, "\(isa)")
            }
        }
    }

    /// The fingerprint as the documentation defines it, composed from the public kernels one
    /// step at a time (working image, luma, crops, PDQ, hashes, histogram of the colour image;
    /// each oriented view from its upright view's DCTs; coarse views from the working luma
    /// area-averaged to the layout's coarse size, their PDQ folded where they are at most
    /// 64×64 pixels, their histograms from the working image; the vignette and tilt views from
    /// the luma shrunk to the tilt size, with the vignette undone (the full frame's histogram with
    /// it undone, from every working pixel's bin)
    /// or rectified (the sheet's)).
    static func composedFingerprint(of buffer: PixelBuffer, layout: FingerprintViewLayout, workingSize: Int = 512) -> Fingerprint {
        let working = Fingerprinter(workingSize: workingSize, using: .portable).workingImage(of: buffer)
        func bounds(_ region: ViewRegion, _ plane: FloatImage) -> PixelRect {
            let b = region.pixelBounds(width: plane.width, height: plane.height)
            return PixelRect(x: b.x, y: b.y, width: b.width, height: b.height)
        }
        // `whole`: the view hashes all of `luma` (a tilt view's rectified plane, the frame with
        // a vignette undone), while `region` (the sheet, the full frame) is its region and where
        // its histogram is counted.
        func views(_ luma: FloatImage, _ region: ViewRegion, orientations: [Dihedral], folded: Bool = false,
                   whole: Bool = false) -> [FingerprintView] {
            let rect = whole ? luma.bounds : bounds(region, luma)
            let crop = luma.cropped(to: rect)
            // Coarse views small enough to fold skip the Jarosz filter (window 1) and fold the
            // decimation into the DCT; every other view is plain PDQ.
            let pdq = folded && PDQHasher.isFolded(width: rect.width, height: rect.height)
                ? PDQHasher(using: .portable).hashFolded(luma: crop) : PDQHasher(using: .portable).hash(luma: crop)
            let block = PerceptualHashes.dctHashBlock(luma: luma, region: rect, using: .portable)
            let colourRect = bounds(region, working.color)
            var counts = [UInt32](repeating: 0, count: ColorHistogram.binCount)
            if working.color.channels == 4 {
                counts = ImageKernels.hsvHistogramCounts(working.color, region: colourRect, using: .portable)
            } else {
                for y in colourRect.y..<(colourRect.y + colourRect.height) {
                    for x in colourRect.x..<(colourRect.x + colourRect.width) { counts[min(15, Int(working.color[x, y] * 0.0625))] += 1 }
                }
            }
            let view = FingerprintView(
                region: region,
                aHash: PerceptualHashes.averageHash(luma: luma, region: rect, using: .portable),
                dHash: PerceptualHashes.differenceHash(luma: luma, region: rect, using: .portable),
                pHash: PerceptualHashes.dctHash(block32x32: block, using: .portable),
                pdq: pdq.hash, quality: PerceptualHashes.contrast(block) < Fingerprinter.flatContrast ? 0 : pdq.quality,
                histogram: ColorHistogram(counts: counts))
            let dct = PerceptualHashes.dctCoefficients(block32x32: block, using: .portable)
            return [view] + orientations.map {
                view.transformed(by: $0, pdq: pdq.hash(for: $0), pHash: PerceptualHashes.dctHash(coefficients: $0.transformDCT(dct, side: 8)))
            }
        }
        let luma = working.luma
        let coarse = ImageKernels.areaResample(luma, width: min(luma.width, layout.coarseSize),
                                               height: min(luma.height, layout.coarseSize), using: .portable)
        let small = ImageKernels.areaResample(luma, width: min(luma.width, layout.tiltSize),
                                              height: min(luma.height, layout.tiltSize), using: .portable)
        let aspect = Double(luma.width) / Double(luma.height)
        let fullQuality = views(luma, .full, orientations: [])[0].quality
        // Every working pixel's histogram bin, counted one pixel at a time.
        let color = working.color
        let bins = layout.vignettes.isEmpty ? [] : (0..<(color.width * color.height)).map { i -> UInt8 in
            let (x, y) = (i % color.width, i / color.width)
            if color.channels != 4 { return UInt8(min(15, Int(color[x, y] * 0.0625))) }
            let counts = ImageKernels.hsvHistogramCounts(color, region: PixelRect(x: x, y: y, width: 1, height: 1), using: .portable)
            return UInt8(counts.firstIndex(of: 1) ?? 0)
        }
        let devignetted = layout.vignettes.flatMap { vignette in
            // No more informative than the full frame (a flat picture stays flat); the
            // frame's colours with the same vignette undone.
            views(vignette.undone(small, aspect: aspect), .full, orientations: [], folded: true, whole: true).map {
                var view = $0
                view.quality = min(view.quality, fullQuality)
                view.histogram = vignette.undoneHistogram(bins: bins, width: color.width, height: color.height, aspect: aspect)
                return view
            }
        }
        let plainBorder = PlainBorder.sheet(in: luma)
        let tilted = layout.tilts.flatMap { tilt in
            let sheet = tilt.sheetRegion(aspect: aspect, plainBorder: plainBorder)
            return views(tilt.rectified(small, aspect: aspect, sheet: sheet, using: .portable), sheet, orientations: [],
                         folded: true, whole: true)
        }
        return Fingerprint(views: layout.regions.flatMap { views(luma, $0, orientations: layout.orientations) }
                           + layout.coarseRegions.flatMap { views(coarse, $0, orientations: [], folded: true) } + devignetted + tilted,
                           layoutVersion: layout.version)
    }

    /// The fused fast path (working planes, in-place view regions, histogram cells) gives the
    /// documented pipeline's fingerprint bit for bit: downsampled on both axes, on one axis,
    /// not at all, RGBA and grey, padded rows.
    @Test(.comparingEveryInstructionSet, arguments: [(700, 530, PixelFormat.rgba8), (500, 375, .rgba8), (1920, 1080, .rgba8), (2000, 33, .rgba8),
                      (90, 700, .gray8), (513, 300, .gray8), (300, 200, .gray8), (6, 5, .rgba8)])
    func fingerprintEqualsTheComposedKernelPipeline(size: (Int, Int, PixelFormat)) {
        let buffer = size.2 == .rgba8 && size.0 * size.1 < 1_000_000
            ? syntheticPhoto(width: size.0, height: size.1, seed: 7)
            : randomBuffer(format: size.2, width: size.0, height: size.1, seed: 7)
        // The catalog's coarse views at 128 pixels (as before layout version 3) are too large to
        // fold: the Jarosz path, with the column bands the coarse grid shares.
        let unfolded = FingerprintViewLayout(regions: FingerprintViewLayout.catalog.regions,
                                             coarseRegions: FingerprintViewLayout.catalog.coarseRegions, coarseSize: 128)
        for layout in [FingerprintViewLayout.catalog, .query, unfolded] {
            let expected = Self.composedFingerprint(of: buffer, layout: layout)
            for isa in supportedInstructionSets {
                #expect(Fingerprinter(using: isa).fingerprint(of: buffer, layout: layout) == expected, "\(isa)")
            }
        }
        #expect(Fingerprinter(workingSize: 200).fingerprint(of: buffer) == Self.composedFingerprint(of: buffer, layout: .catalog, workingSize: 200))
    }

    /// The median used for the hash bits is the 128th smallest of PDQ's 256 coefficients (the
    /// 32nd of pHash's 64), as a full sort gives it, also with many ties, negative zeros and
    /// wide ranges, on every instruction set (each selects it its own way: bisection,
    /// partitions).
    @Test(.comparingEveryInstructionSet) func hashBitsThresholdAtTheSortedMedianOnEveryPath() {
        var rng = SeededGenerator(seed: 9)
        for trial in 0..<400 {
            let levels = UInt64([3, 17, 1000, 1 << 20][trial % 4])
            func coefficient() -> Float {
                let v = Float(Int(rng.next() % levels)) - Float(levels / 2)
                return v == 0 && rng.next() % 2 == 0 ? -0.0 : v * (trial % 8 < 4 ? 1 : 1e-3)
            }
            let pdq = (0..<256).map { _ in coefficient() }, pHash = (0..<64).map { _ in coefficient() }
            let pdqMedian = pdq.sorted()[127], pHashMedian = pHash.sorted()[31]
            var expected = SIMD4<UInt64>.zero
            for k in 0..<256 where pdq[k] > pdqMedian { expected[k >> 6] |= 1 << UInt64(k & 63) }
            var expectedPHash: UInt64 = 0
            for k in 0..<64 where pHash[k] > pHashMedian { expectedPHash |= 1 << UInt64(k) }
            for isa in supportedInstructionSets {
                #expect(PDQHasher.bits(of: pdq, using: isa) == PDQHash(words: expected), "trial \(trial), \(isa)")
                #expect(PerceptualHashes.dctHash(coefficients: pHash, using: isa) == expectedPHash, "trial \(trial), \(isa)")
            }
        }
    }

    @Test func catalogLayoutGivesOneViewPerRegionFullFrameFirst() throws {
        let fp = Fingerprinter().fingerprint(of: syntheticPhoto(width: 400, height: 300, seed: 3))
        #expect(fp.views.map(\.region) == FingerprintViewLayout.catalog.viewRegions)
        #expect(fp.full?.region == .full)
        #expect(try Fingerprint(serialized: fp.serialized()) == fp)
        let q = Fingerprinter().queryFingerprint(of: syntheticPhoto(width: 400, height: 300, seed: 3))
        #expect(q.views.map(\.region) == FingerprintViewLayout.query.viewRegions(aspect: 400.0 / 300.0))
        #expect(q.views[0] == fp.views[0])
    }

    @Test func hashesStayCloseUnderResizingAndFarForDifferentImages() throws {
        let original = syntheticPhoto(width: 800, height: 600, seed: 10)
        let smaller = ImageKernels.areaResample(original, width: 331, height: 248)
        let resized = try PixelBuffer(format: .rgba8, width: 331, height: 248,
                                      bytes: smaller.samples.map { UInt8(max(0, min(255, $0.rounded()))) })
        let other = syntheticPhoto(width: 800, height: 600, seed: 11)
        let f = Fingerprinter(layout: .fullFrame)
        let a = try #require(f.fingerprint(of: original).full)
        let b = try #require(f.fingerprint(of: resized).full)
        let c = try #require(f.fingerprint(of: other).full)
        #expect(a.pdq.distance(to: b.pdq) <= 16)
        #expect(a.pdq.distance(to: c.pdq) >= 64)
        #expect((a.pHash ^ b.pHash).nonzeroBitCount <= 6)
        #expect((a.dHash ^ b.dHash).nonzeroBitCount <= 6)
        #expect((a.aHash ^ b.aHash).nonzeroBitCount <= 6)
        #expect((a.pHash ^ c.pHash).nonzeroBitCount >= 12)
        #expect(a.histogram.distance(to: b.histogram) <= 20)
        #expect(a.histogram.distance(to: c.histogram) > 60)
    }

    @Test func aCropLandsNearTheMatchingCatalogView() throws {
        let photo = syntheticPhoto(width: 640, height: 480, seed: 20)
        let catalog = Fingerprinter().fingerprint(of: photo)
        // The centre half of the photo, as a user would select it.
        let crop = try photo.region(PixelRect(x: 160, y: 120, width: 320, height: 240))
        let query = try #require(Fingerprinter().queryFingerprint(of: crop).full)
        let best = catalog.views.min { $0.pdq.distance(to: query.pdq) < $1.pdq.distance(to: query.pdq) }
        #expect(best?.region == FingerprintViewLayout.centre(0.5))
        #expect((best?.pdq.distance(to: query.pdq) ?? 256) <= 20)
    }

    @Test func blankImagesAreNotInformative() throws {
        for value in [UInt8(0), 128, 255] {
            let blank = try PixelBuffer(format: .rgba8, width: 300, height: 200, bytes: [UInt8](repeating: value, count: 300 * 200 * 4))
            let fp = Fingerprinter().fingerprint(of: blank)
            #expect(!fp.isInformative)
            #expect(fp.views.allSatisfy { $0.quality == 0 && !$0.isInformative })
        }
        // Nearly flat: faint noise of ±2 levels around grey.
        var rng = SeededGenerator(seed: 1)
        let noisy = try PixelBuffer(format: .gray8, width: 256, height: 256, bytes: (0..<(256 * 256)).map { _ in UInt8(126 + rng.next() % 5) })
        #expect(!Fingerprinter().fingerprint(of: noisy).isInformative)
        #expect(Fingerprinter().fingerprint(of: syntheticPhoto(width: 300, height: 200, seed: 5)).isInformative)
    }

    @Test func dihedralHashesMatchHashesOfTransformedImages() {
        // 64×64: PDQ's decimation and box filter are then symmetric, so rotating the
        // pixels and transforming the DCT must agree up to float rounding near the median.
        let photo = syntheticPhoto(width: 64, height: 64, seed: 30)
        let hasher = PDQHasher()
        let result = hasher.hash(photo)
        let rotated = hasher.hash(rotatedClockwise(photo)).hash
        let best = Dihedral.allCases.min { result.hash(for: $0).distance(to: rotated) < result.hash(for: $1).distance(to: rotated) }
        #expect(result.hash(for: .original) == result.hash)
        #expect(result.dihedralHashes.count == 8)
        #expect(best != .original)
        #expect(best == .rotate270)   // PDQ names a clockwise quarter turn "rotate270"
        #expect(result.hash(for: best ?? .original).distance(to: rotated) <= 2)
    }

    @Test(arguments: [(1, 1), (3, 2), (1, 1000), (1000, 4), (5, 5)])
    func tinyAndExtremeShapesFingerprintWithoutTrouble(size: (Int, Int)) {
        let buffer = randomBuffer(format: .rgba8, width: size.0, height: size.1, seed: 3)
        let fp = Fingerprinter().fingerprint(of: buffer)
        #expect(fp.views.count == FingerprintViewLayout.catalog.viewCount)
        #expect(fp.views.allSatisfy { (0...100).contains($0.quality) })
        if min(size.0, size.1) < PDQHasher.minimumSide { #expect(fp.full?.quality == 0) }
        #expect(Fingerprinter(using: .portable).fingerprint(of: buffer) == fp)
    }
}

@Suite struct DecodingFingerprintTests {
    /// Fingerprinting straight from the decoder's rows gives the fingerprint of the decoded
    /// buffer; a whole non-interlaced PNG or a whole upright JPEG is streamed (never
    /// stored), everything else is decoded into a buffer first.
    @Test(.comparingEveryInstructionSet) func fingerprintWhileDecodingEqualsDecodeThenFingerprint() throws {
        let photo = try ImageDecoder().decode(file: testdataURL.appendingPathComponent("catalog/landmarks/hurricane-ridge.jpg").path).pixels
        let gray = try PixelBuffer(format: .gray8, width: 613, height: 301,
                                   bytes: (0..<(613 * 301)).map { UInt8(truncatingIfNeeded: $0 &* 7 / 5 + $0 / 613) })
        var files: [(String, [UInt8], Bool)] = [
            ("photo.png", try PNGEncoder().encode(photo), true),
            ("synthetic.png", try PNGEncoder().encode(syntheticPhoto(width: 1300, height: 517, seed: 4)), true),
            ("gray.png", try PNGEncoder().encode(gray), true),
            ("small.png", try PNGEncoder().encode(syntheticPhoto(width: 200, height: 90, seed: 5)), true),
        ]
        // Opaque colour (RGB 8 and 16 bits, palettes without tRNS) streams RGB rows and adds the
        // alpha itself; tbrn2c08 has a tRNS colour, so libpng adds the alpha there.
        for name in ["basi2c08.png", "basn3p04.png", "basn0g16.png", "basn2c08.png", "basn2c16.png", "basn3p08.png", "tbrn2c08.png"] {
            files.append((name, Array(try Data(contentsOf: testdataURL.appendingPathComponent("pngsuite/\(name)"))), !name.hasPrefix("basi")))
        }
        files.append(("hurricane-ridge.jpg", Array(try Data(contentsOf: testdataURL.appendingPathComponent("catalog/landmarks/hurricane-ridge.jpg"))), true))
        for (name, bytes, streams) in files {
            for options in [DecodeOptions(minimumShortSide: 256), DecodeOptions(region: .fractions(x: 0.1, y: 0.2, width: 0.5, height: 0.5))] {
                let decoded = try ImageDecoder().decode(bytes, source: name, options: options).pixels
                for isa in supportedInstructionSets {
                    let fingerprinter = Fingerprinter(using: isa)
                    let expected = fingerprinter.fingerprint(of: decoded)
                    #expect(try fingerprinter.fingerprint(decoding: bytes, source: name, options: options) == expected, "\(name) \(isa)")
                }
                var rows = RowCollector()
                let summary = try ImageDecoder().decodeRows(bytes, source: name, options: options, into: &rows)
                #expect(summary.streamed == (streams && options.region == nil), "\(name)")
                #expect(rows.bytes == decoded.packedBytes() && rows.width == decoded.width && rows.format == decoded.format, "\(name)")
            }
        }
    }

    @Test func damagedPNGFailsAsTheBufferedDecodeDoes() throws {
        var bytes = try PNGEncoder().encode(syntheticPhoto(width: 300, height: 200, seed: 6))
        bytes.removeLast(bytes.count / 3)
        #expect(throws: DecodeError.self) { try ImageDecoder().decode(bytes) }
        #expect(throws: DecodeError.self) { try Fingerprinter().fingerprint(decoding: bytes) }
    }
}

/// Collects the rows a decoder hands over.
private struct RowCollector: DecodedRowSink {
    var bytes: [UInt8] = [], width = 0, format = PixelFormat.rgba8, next = 0
    mutating func begin(width: Int, height: Int, format: PixelFormat) {
        self.width = width
        self.format = format
    }
    mutating func consume(row: UnsafeBufferPointer<UInt8>, y: Int) {
        #expect(y == next)
        next += 1
        bytes.append(contentsOf: row)
    }
}
