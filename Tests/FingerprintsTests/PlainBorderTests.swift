import Foundation
import Testing
import Fingerprints
import PixelBuffers

/// The plain border around a photographed sheet: found where a flat surface frames a real
/// photo, and nowhere else.
@Suite struct PlainBorderTests {
    /// A testdata photo as a luma plane on the 0…255 scale (BT.601 weights).
    static func luma(_ path: String) throws -> FloatImage {
        let pixels = try ImageDecoder().decode(file: testdataURL.appendingPathComponent(path).path).pixels
        let bytes = pixels.packedBytes(), n = pixels.format.bytesPerPixel
        let samples = (0..<pixels.pixelCount).map { i -> Float in
            n < 3 ? Float(bytes[i * n]) : 0.299 * Float(bytes[i * n]) + 0.587 * Float(bytes[i * n + 1]) + 0.114 * Float(bytes[i * n + 2])
        }
        return FloatImage(width: pixels.width, height: pixels.height, channels: 1, samples: samples)
    }

    /// `picture` inside a surface of brightness `surface` (± 3 of seeded grain), `left`, `top`,
    /// `right` and `bottom` pixels wide; `leftSurface` paints the left strip differently.
    static func framed(_ picture: FloatImage, left: Int, top: Int, right: Int, bottom: Int,
                       surface: Float = 140, leftSurface: Float? = nil) -> FloatImage {
        let (w, h) = (picture.width + left + right, picture.height + top + bottom)
        var state: UInt64 = 12_345
        var samples = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let grain = Float(Int(state >> 61)) - 3.5   // −3.5 … 3.5
                let inside = x >= left && x < left + picture.width && y >= top && y < top + picture.height
                samples[y * w + x] = inside ? picture.samples[(y - top) * picture.width + (x - left)]
                    : (x < left ? leftSurface ?? surface : surface) + grain
            }
        }
        return FloatImage(width: w, height: h, channels: 1, samples: samples)
    }

    @Test func aPhotoOnAPlainSurfaceYieldsTheBoxInsideTheSurfaceOnEachSide() throws {
        let photo = try Self.luma("negatives/gas-cylinder.jpg")
        let framed = Self.framed(photo, left: 12, top: 5, right: 30, bottom: 9)
        let sheet = try #require(PlainBorder.sheet(in: framed))
        let (w, h) = (Float(framed.width), Float(framed.height))
        #expect(abs(sheet.x * w - 12) < 0.01 && abs(sheet.y * h - 5) < 0.01, "\(sheet)")
        #expect(abs(sheet.width * w - Float(photo.width)) < 0.01 && abs(sheet.height * h - Float(photo.height)) < 0.01, "\(sheet)")
    }

    @Test func aPhotoReachingTheFrameAFlatImageAndTwoSurfacesHaveNoBorderToTrust() throws {
        let photo = try Self.luma("catalog/landmarks/hurricane-ridge.jpg")
        #expect(PlainBorder.sheet(in: photo) == nil, "the photo itself reaches every edge")
        let flat = FloatImage(width: 200, height: 100, channels: 1, samples: [Float](repeating: 90, count: 20_000))
        #expect(PlainBorder.sheet(in: flat) == nil, "plain lines reaching the largest border: no sheet to find")
        #expect(PlainBorder.sheet(in: Self.framed(photo, left: 8, top: 8, right: 0, bottom: 8)) == nil, "one side without a border")
        #expect(PlainBorder.sheet(in: Self.framed(photo, left: 8, top: 8, right: 8, bottom: 8, leftSurface: 60)) == nil,
                "corners of different brightness: not one surface")
    }

    @Test func onlyTheTiltViewsThatFitThePlainBorderTakeIt() throws {
        let photo = try Self.luma("negatives/gas-cylinder.jpg")
        let framed = Self.framed(photo, left: 20, top: 6, right: 20, bottom: 6)
        let plain = try #require(PlainBorder.sheet(in: framed))
        let aspect = Double(framed.width) / Double(framed.height)
        let fitting = ViewTilt(down: 20, right: 0, margin: 0.02, fitsPlainBorder: true)
        let fixed = ViewTilt(down: 20, right: 0, margin: 0.02)
        #expect(fitting.sheetRegion(aspect: aspect, plainBorder: plain) == plain)
        #expect(fitting.sheetRegion(aspect: aspect, plainBorder: nil) == fixed.sheetRegion(aspect: aspect), "no border: the margin")
        #expect(fixed.sheetRegion(aspect: aspect, plainBorder: plain) == fixed.sheetRegion(aspect: aspect))
        #expect(FingerprintViewLayout.queryTilts.filter(\.fitsPlainBorder).count == 9, "one ring of the query and its outline view fit the border")
        #expect(FingerprintViewLayout.queryTilts.filter(\.rectifiesQuadrilateral).count == 1)
    }
}
