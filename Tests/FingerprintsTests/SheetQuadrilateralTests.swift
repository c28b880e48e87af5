import Foundation
import Testing
import Fingerprints
import PixelBuffers

/// The outline of a sheet photographed at an angle on a plain surface: found corner by
/// corner, and rectified back onto the picture.
@Suite struct SheetQuadrilateralTests {
    /// `picture` drawn as the quadrilateral `corners` (pixels of a `width`×`height` frame:
    /// top left, top right, bottom right, bottom left) on a surface of brightness 140 with
    /// seeded grain of ± 3.5: each frame pixel takes the picture's sample nearest to where
    /// the inverse of the square-to-quad map sends it.
    static func photographed(_ picture: FloatImage, width: Int, height: Int, corners: [(Double, Double)]) -> FloatImage {
        let quad = SheetQuadrilateral(
            topLeft: .init(x: corners[0].0 / Double(width), y: corners[0].1 / Double(height)),
            topRight: .init(x: corners[1].0 / Double(width), y: corners[1].1 / Double(height)),
            bottomRight: .init(x: corners[2].0 / Double(width), y: corners[2].1 / Double(height)),
            bottomLeft: .init(x: corners[3].0 / Double(width), y: corners[3].1 / Double(height)))
        // Sheet pixel (of a width×height plane) → frame pixel; inverted to go frame → sheet.
        let m = quad.mapping(width: width, height: height).map(Double.init)
        let inverse = [m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                       m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                       m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]]
        var state: UInt64 = 99
        var samples = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let (fx, fy) = (Double(x), Double(y))
                let z = inverse[6] * fx + inverse[7] * fy + inverse[8]
                let sx = (inverse[0] * fx + inverse[1] * fy + inverse[2]) / z, sy = (inverse[3] * fx + inverse[4] * fy + inverse[5]) / z
                // Sheet pixel (sx, sy) of the width×height plane → the picture's pixel.
                let px = Int(((sx + 0.5) / Double(width) * Double(picture.width)).rounded(.down))
                let py = Int(((sy + 0.5) / Double(height) * Double(picture.height)).rounded(.down))
                if px >= 0, px < picture.width, py >= 0, py < picture.height {
                    samples[y * width + x] = picture.samples[py * picture.width + px]
                } else {
                    samples[y * width + x] = 140 + Float(Int(state >> 61)) - 3.5
                }
            }
        }
        return FloatImage(width: width, height: height, channels: 1, samples: samples)
    }

    /// `plane` (0…255) as a Gray8 buffer.
    static func gray(_ plane: FloatImage) throws -> PixelBuffer {
        try PixelBuffer(format: .gray8, width: plane.width, height: plane.height,
                        bytes: plane.samples.map { UInt8(max(0, min(255, $0.rounded()))) })
    }

    /// A narrow picture (the gas cylinder, about 1:3) leaning away at the top right.
    static let corners: [(Double, Double)] = [(30, 14), (101, 22), (112, 290), (22, 300)]

    @Test func aSheetTiltedOnAPlainSurfaceIsFoundByItsFourCorners() throws {
        let photo = try PlainBorderTests.luma("negatives/gas-cylinder.jpg")
        let frame = Self.photographed(photo, width: 134, height: 312, corners: Self.corners)
        let box = try #require(PlainBorder.sheet(in: frame))
        let found = try #require(SheetQuadrilateral(in: frame, box: box))
        for (corner, expected) in zip(found.corners, Self.corners) {
            #expect(abs(corner.x * 134 - expected.0) <= 2 && abs(corner.y * 312 - expected.1) <= 2, "\(corner) against \(expected)")
        }
    }

    @Test func rectifyingTheOutlineGivesThePictureBack() throws {
        let photo = try PlainBorderTests.luma("negatives/gas-cylinder.jpg")
        let frame = Self.photographed(photo, width: 134, height: 312, corners: Self.corners)
        let box = try #require(PlainBorder.sheet(in: frame))
        let found = try #require(SheetQuadrilateral(in: frame, box: box))
        let rectified = ImageKernels.perspectiveWarp(frame, mapping: found.mapping(width: 134, height: 312), using: .portable)
        let expected = ImageKernels.areaResample(photo, width: 134, height: 312, using: .portable)
        // Away from the edges (where a pixel of the outline's error shows the surface).
        var difference: Float = 0, count = 0
        for y in 16..<296 {
            for x in 8..<126 {
                difference += abs(rectified.samples[y * 134 + x] - expected.samples[y * 134 + x])
                count += 1
            }
        }
        #expect(difference / Float(count) < 12, "mean difference \(difference / Float(count))")
        // And the whole query fingerprint has a view that meets the picture's full frame.
        let full = Fingerprinter().fingerprint(of: try Self.gray(photo)).views[0].pdq
        let query = Fingerprinter().fingerprint(of: try Self.gray(frame), layout: .query)
        let outline = try #require(query.views.last)
        #expect(outline.pdq.distance(to: full) <= 48, "the outline view's PDQ distance \(outline.pdq.distance(to: full))")
    }

    @Test func noOutlineIsTrustedWithoutASheetThatSpansTheBox() {
        let flat = FloatImage(width: 64, height: 64, channels: 1, samples: [Float](repeating: 90, count: 64 * 64))
        #expect(SheetQuadrilateral(in: flat, box: ViewRegion(x: 0.1, y: 0.1, width: 0.8, height: 0.8)) == nil, "nothing but surface")
        // A small blob in the middle of the box: its corners span far less than half of it.
        var samples = [Float](repeating: 90, count: 64 * 64)
        for y in 30..<34 { for x in 30..<34 { samples[y * 64 + x] = 250 } }
        let blob = FloatImage(width: 64, height: 64, channels: 1, samples: samples)
        #expect(SheetQuadrilateral(in: blob, box: ViewRegion(x: 0.1, y: 0.1, width: 0.8, height: 0.8)) == nil)
    }
}
