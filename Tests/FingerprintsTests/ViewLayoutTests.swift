import Foundation
import PixelBuffers
import Testing
import Fingerprints

/// The catalog layout's coarse grid views and the query layout's mirrored full frame.
@Suite struct ViewLayoutTests {
    /// A left–right mirror of an RGBA8 buffer.
    func mirrored(_ buffer: PixelBuffer) throws -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: buffer.width * buffer.height * 4)
        buffer.withUnsafeBytes { src in
            for y in 0..<buffer.height {
                for x in 0..<buffer.width {
                    for k in 0..<4 { bytes[(y * buffer.width + buffer.width - 1 - x) * 4 + k] = src[y * buffer.bytesPerRow + x * 4 + k] }
                }
            }
        }
        return try PixelBuffer(format: .rgba8, width: buffer.width, height: buffer.height, bytes: bytes)
    }

    func photo(_ path: String) throws -> PixelBuffer {
        try ImageDecoder().decode(file: testdataURL.appendingPathComponent(path).path).pixels
    }

    @Test func layoutsListTheirViewsInFingerprintOrder() throws {
        let buffer = syntheticPhoto(width: 400, height: 300, seed: 3)
        let catalog = Fingerprinter().fingerprint(of: buffer)
        #expect(FingerprintViewLayout.catalog.viewCount == 31)
        #expect(catalog.views.map(\.region) == FingerprintViewLayout.catalog.viewRegions)
        #expect(Set(catalog.views.map(\.region)).count == 31)
        let query = Fingerprinter().queryFingerprint(of: buffer)
        #expect(FingerprintViewLayout.query.viewCount == 24 + 1 + 25)
        #expect(query.views.map(\.region) == FingerprintViewLayout.query.viewRegions(aspect: 400.0 / 300.0))
        #expect(Array(query.views.map(\.region).prefix(8)) == Array(repeating: .full, count: 8))
        #expect(query.views[8].region == FingerprintViewLayout.centre(0.85) && query.views[16].region == FingerprintViewLayout.centre(0.7))
        #expect(query.views[0] == catalog.views[0])
        // Then the vignette undone: the whole frame, its colours brightened back, other codes.
        #expect(query.views[24].region == .full && query.views[24].histogram != query.views[0].histogram)
        #expect(query.views[24].pdq != query.views[0].pdq)
        // The 25 tilt views last (24 hypotheses, then the sheet's outline), each over the
        // frame less its margin (never the full frame).
        let sheets = FingerprintViewLayout.queryTilts.map { $0.sheetRegion(aspect: 400.0 / 300.0) }
        #expect(sheets.count == 25)
        #expect(Array(query.views.map(\.region).suffix(25)) == sheets && !sheets.contains(.full))
        #expect(FingerprintViewLayout.query(orientations: .upright).viewRegions(aspect: 400.0 / 300.0)
                == [.full, FingerprintViewLayout.centre(0.85), FingerprintViewLayout.centre(0.7), .full] + sheets)
        let mirror = Fingerprinter().fingerprint(of: buffer, layout: .query(orientations: .uprightAndMirror))
        #expect(mirror.views.count == 6 + 1 + 25 && mirror.views[1] == query.views[5], "the mirror is flipY, the same view in both layouts")
        #expect(Array(mirror.views.suffix(26)) == Array(query.views.suffix(26)),
                "the vignette and tilt views do not depend on the orientations")
        // Without its tilt views, a query fingerprint is a prefix of the whole one.
        let upright = Fingerprinter().fingerprint(of: buffer, layout: FingerprintViewLayout.query.withoutTilts)
        #expect(upright.views == Array(query.views.prefix(25)))
        #expect(try Fingerprint(serialized: query.serialized()) == query)
        #expect(try Fingerprint(serialized: catalog.serialized()) == catalog)
    }

    @Test func gridWindowsStepEvenlyFromEdgeToEdge() {
        let grid = FingerprintViewLayout.grid(0.75, steps: 5)
        #expect(grid.count == 25)
        #expect(grid.first == ViewRegion(x: 0, y: 0, width: 0.75, height: 0.75))
        #expect(grid[1].x == 0.0625 && grid[5].y == 0.0625)
        #expect(grid[12] == FingerprintViewLayout.centre(0.75))
        #expect(grid.last == ViewRegion(x: 0.25, y: 0.25, width: 0.75, height: 0.75))
    }

    @Test(arguments: ["catalog/landmarks/hurricane-ridge.jpg", "catalog/food/cherries.jpg", "negatives/anemone.jpg"])
    func mirroredViewMatchesTheFingerprintOfTheMirroredPhoto(path: String) throws {
        let original = try photo(path)
        let derived = Fingerprinter().fingerprint(of: original, layout: .query(orientations: .uprightAndMirror)).views[1]
        let direct = try #require(Fingerprinter(layout: .fullFrame).fingerprint(of: mirrored(original)).full)
        let unflipped = try #require(Fingerprinter(layout: .fullFrame).fingerprint(of: original).full)
        // PDQ's box filter and its decimation (samples at ⌊(j + ½)·W/64⌋) are not exactly
        // mirror-symmetric unless the side is 64 (see the dihedral test in
        // FingerprinterTests), so the derived hash sits a few bits from the recomputed one
        // (measured 14–18 of 256; PDQ's match threshold is 31). The area-averaged codes
        // differ only where two cells are nearly equal.
        #expect(derived.pdq.distance(to: direct.pdq) <= 24)
        #expect((derived.pHash ^ direct.pHash).nonzeroBitCount <= 4)
        #expect((derived.dHash ^ direct.dHash).nonzeroBitCount <= 4)
        #expect((derived.aHash ^ direct.aHash).nonzeroBitCount <= 4)
        #expect(derived.histogram == unflipped.histogram && derived.quality == unflipped.quality)
        #expect(unflipped.pdq.distance(to: direct.pdq) > 32)
    }

    @Test func anOffCentreCropLandsNearACoarseGridView() throws {
        let original = try photo("catalog/landmarks/hurricane-ridge.jpg")
        let catalog = Fingerprinter().fingerprint(of: original)
        // A 75 % window 3/16 from the left and 1/16 from the top: no working-resolution view covers it.
        let crop = try original.region(PixelRect(x: original.width * 3 / 16, y: original.height / 16,
                                                 width: original.width * 3 / 4, height: original.height * 3 / 4))
        let query = try #require(Fingerprinter().queryFingerprint(of: crop).full)
        let best = try #require(catalog.views.min { ($0.pdq.distance(to: query.pdq), $0.region.x) < ($1.pdq.distance(to: query.pdq), $1.region.x) })
        #expect(best.region == ViewRegion(x: 0.1875, y: 0.0625, width: 0.75, height: 0.75))
        #expect(best.pdq.distance(to: query.pdq) <= 40)
    }
}
