import Foundation
import PixelBuffers
import Testing
import Fingerprints

/// The query's vignette hypothesis: what it brightens back, and how much.
@Suite struct ViewVignetteTests {
    /// A plane of `value` darkened as a vignette of `strength` darkens a frame of `aspect`
    /// (computed here in doubles, independently of the code under test).
    static func vignetted(width: Int, height: Int, aspect: Double, value: Double, strength: Double) -> FloatImage {
        let reach = (aspect * aspect + 1) / 4
        let samples = (0..<(width * height)).map { i -> Float in
            let dx = ((Double(i % width) + 0.5) / Double(width) - 0.5) * aspect
            let dy = (Double(i / width) + 0.5) / Double(height) - 0.5
            return Float(value * (1 - strength * (dx * dx + dy * dy) / reach))
        }
        return FloatImage(width: width, height: height, channels: 1, samples: samples)
    }

    @Test(arguments: [(64, 48, 4.0 / 3.0), (32, 32, 16.0 / 9.0), (20, 50, 0.4)])
    func undoingTheVignetteAFrameWentThroughGivesItsEvenBrightnessBack(width: Int, height: Int, aspect: Double) {
        // The plane may be the frame shrunk more in one direction (32×32 from 16:9).
        let dark = Self.vignetted(width: width, height: height, aspect: aspect, value: 200, strength: 0.4)
        #expect(dark.samples.min()! < 200 * 0.65, "the corners lost about 40 %")
        let undone = ViewVignette(strength: 0.4).undone(dark, aspect: aspect)
        #expect(undone.samples.allSatisfy { abs($0 - 200) < 0.01 }, "\(undone.samples.min()!) … \(undone.samples.max()!)")
    }

    @Test func theCentreKeepsItsBrightnessAndBrightCornersCapAtWhite() {
        let flat = FloatImage(width: 41, height: 41, channels: 1, samples: [Float](repeating: 160, count: 41 * 41))
        let undone = ViewVignette(strength: 0.4).undone(flat, aspect: 1)
        #expect(abs(undone[20, 20] - 160) < 0.01)
        #expect(undone[0, 0] == 255 && undone[40, 40] == 255, "160 / 0.62 caps at 255")
        #expect(abs(undone[20, 0] - 197.6) < 0.5, "the middle of an edge: 160 / 0.81, \(undone[20, 0])")
    }

    @Test func aFlatPictureStaysUninformativeWithItsVignetteUndone() throws {
        // Undoing a vignette on a flat grey draws a radial gradient; the view must not make
        // an unsearchable picture searchable (nor match other pictures' gradients).
        let flat = try PixelBuffer(format: .rgba8, width: 300, height: 200,
                                   bytes: [UInt8]((0..<(300 * 200)).flatMap { _ in [UInt8]([128, 128, 128, 255]) }))
        let query = Fingerprinter().queryFingerprint(of: flat)
        let vignetteView = query.views[FingerprintViewLayout.query.regions.count * 8]
        #expect(vignetteView.region == .full && vignetteView.quality == 0)
        #expect(query.wholeImageQuality < FingerprintView.minimumSearchableQuality)
    }

    /// `buffer` (RGBA8) with every channel darkened as a vignette of `strength` darkens the
    /// frame (the evaluation's filter without its toning), computed here in doubles.
    static func vignetted(_ buffer: PixelBuffer, strength: Double) throws -> PixelBuffer {
        var bytes = buffer.packedBytes()
        let w = buffer.width, h = buffer.height, cx = Double(w) / 2, cy = Double(h) / 2
        for y in 0..<h {
            for x in 0..<w {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let light = 1 - strength * (dx * dx + dy * dy) / (cx * cx + cy * cy)
                for c in 0..<3 { bytes[(y * w + x) * 4 + c] = UInt8((Double(bytes[(y * w + x) * 4 + c]) * light).rounded()) }
            }
        }
        return try PixelBuffer(format: .rgba8, width: w, height: h, bytes: bytes)
    }

    @Test func theVignetteViewCountsTheColoursTheVignetteDarkenedAsTheyWere() throws {
        // A flower on a white background: the vignette turns the white corners into greys
        // the catalog picture does not have, which the full frame's histogram counts.
        let path = testdataURL.appendingPathComponent("negatives/daffodil.jpg").path
        let original = try ImageDecoder().decode(file: path).pixels
        try #require(original.format == .rgba8)
        let fingerprinter = Fingerprinter()
        let reference = fingerprinter.fingerprint(of: original).views[0].histogram
        let darkened = fingerprinter.queryFingerprint(of: try Self.vignetted(original, strength: 0.4))
        let vignetteView = darkened.views[FingerprintViewLayout.query.regions.count * 8]
        #expect(vignetteView.region == .full)
        let asDarkened = darkened.views[0].histogram.distance(to: reference)
        let asUndone = vignetteView.histogram.distance(to: reference)
        #expect(asDarkened > 150, "the darkened frame's colours are far from the picture's: L1 \(asDarkened)")
        #expect(asUndone < asDarkened / 3, "the vignette view's colours are the picture's again: L1 \(asUndone) against \(asDarkened)")
        // A picture without a vignette, brightened at the corners by the view, moves less than
        // the vignette moved this one (its colours are what the other views count).
        let plain = fingerprinter.queryFingerprint(of: original)
        #expect(plain.views[FingerprintViewLayout.query.regions.count * 8].histogram.distance(to: reference) < asDarkened)
    }

    @Test func undoingNoVignetteKeepsTheHistogramAndEveryInstructionSetAgrees() throws {
        let photo = syntheticPhoto(width: 300, height: 200, seed: 7)
        let results = supportedInstructionSets.map { isa in
            Fingerprinter(using: isa).queryFingerprint(of: photo).views[FingerprintViewLayout.query.regions.count * 8].histogram
        }
        #expect(Set(results).count == 1, "the vignette view's histogram is the same on every instruction set")
        var layout = FingerprintViewLayout.query
        layout.vignettes = [ViewVignette(strength: 0)]
        let fingerprint = Fingerprinter().fingerprint(of: photo, layout: layout)
        let undone = fingerprint.views[layout.regions.count * 8].histogram, full = fingerprint.views[0].histogram
        #expect(undone.distance(to: full) <= 8, "strength 0 leaves the colours (sampled on a grid): L1 \(undone.distance(to: full))")
    }
}
