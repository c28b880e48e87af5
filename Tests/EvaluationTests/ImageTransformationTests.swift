import PixelBuffers
import Testing
@testable import Evaluation

/// Each transformation does what its documentation says, on a real catalog photo.
@Suite struct ImageTransformationTests {
    let photo: PixelBuffer

    init() throws {
        photo = try TestImages.photo()
    }

    @Test func everyTransformationIsDeterministicForASeed() throws {
        for transformation in ImageTransformation.allCases {
            let a = try transformation.apply(to: photo, seed: 42)
            let b = try transformation.apply(to: photo, seed: 42)
            #expect(a == b, "\(transformation) differs between two runs with the same seed")
            #expect(a.format == .rgba8, "\(transformation) returns RGBA8")
        }
    }

    @Test func downscaleKeepsAQuarterOfEachSideAndAveragesBlocks() throws {
        let out = try ImageTransformation.downscale25.apply(to: photo, seed: 1)
        #expect(out.width == (photo.width + 2) / 4)
        #expect(out.height == (photo.height + 2) / 4)
        // Every output pixel is the mean of its source box: the mean level survives.
        #expect(abs(TestImages.meanLevel(out) - TestImages.meanLevel(photo)) < 2)
    }

    @Test func borderCropKeepsTheCentralEightyPercent() throws {
        let out = try ImageTransformation.borderCrop10.apply(to: photo, seed: 1)
        let dx = photo.width / 10, dy = photo.height / 10
        #expect(out.width == photo.width - 2 * dx)
        #expect(out.height == photo.height - 2 * dy)
        #expect(TestImages.pixel(out, 0, 0) == TestImages.pixel(photo, dx, dy))
        #expect(TestImages.pixel(out, out.width - 1, out.height - 1) == TestImages.pixel(photo, photo.width - 1 - dx, photo.height - 1 - dy))
    }

    @Test func offCentreCropIsAThreeQuarterWindowTowardsASide() throws {
        var sides = Set<[Bool]>()
        let w = photo.width * 3 / 4, h = photo.height * 3 / 4
        let slackX = photo.width - w, slackY = photo.height - h
        for seed in UInt64(0)..<16 {
            let out = try ImageTransformation.offCentreCrop25.apply(to: photo, seed: seed)
            #expect(out.width == w && out.height == h)
            // Find the window's origin by matching two of its pixels against the photo.
            var origin: (Int, Int)?
            search: for y in 0...slackY {
                for x in 0...slackX where TestImages.pixel(out, 0, 0) == TestImages.pixel(photo, x, y)
                    && TestImages.pixel(out, w - 1, h - 1) == TestImages.pixel(photo, x + w - 1, y + h - 1)
                    && TestImages.pixel(out, w / 2, h / 3) == TestImages.pixel(photo, x + w / 2, y + h / 3) {
                    origin = (x, y)
                    break search
                }
            }
            let (x, y) = try #require(origin, "seed \(seed): window not found in the photo")
            for (offset, slack) in [(x, slackX), (y, slackY)] {
                let fraction = Double(offset) / Double(slack)
                #expect(fraction <= 0.2 + 1e-9 || fraction >= 0.8 - 1e-9, "seed \(seed): offset \(offset) of \(slack) is central")
            }
            sides.insert([x < slackX / 2, y < slackY / 2])
        }
        #expect(sides.count >= 3, "seeds should reach several sides, got \(sides)")
    }

    @Test func screenshotSelectionHoldsThePhotoPlusAFewPercentOfInterface() throws {
        let out = try ImageTransformation.screenshot.apply(to: photo, seed: 7)
        // The photo is scaled to the 672-pixel content width (or to the height limit).
        let scaledWidth = min(672, photo.width * (ScreenshotCanvas.photoBottomLimit - ScreenshotCanvas.photoTop) / photo.height)
        #expect(out.width > scaledWidth && out.width <= Int(Double(scaledWidth) * 1.1) + 2)
        #expect(out.width <= ScreenshotCanvas.width && out.height <= ScreenshotCanvas.height)
        // The selection's top-left pixel is interface (the light background), not the photo.
        let corner = TestImages.pixel(out, 0, 0)
        #expect(corner == [250, 250, 250, 255] || corner == [255, 255, 255, 255] || corner == [218, 220, 224, 255],
                "corner \(corner) should be UI chrome")
    }

    @Test func brightnessContrastChangesLevelsButNotAlpha() throws {
        var shifts: [Double] = []
        for seed in UInt64(0)..<12 {
            let out = try ImageTransformation.brightnessContrast.apply(to: photo, seed: seed)
            #expect(out.width == photo.width && out.height == photo.height)
            #expect(TestImages.pixel(out, 5, 5)[3] == 255)
            shifts.append(TestImages.meanLevel(out) - TestImages.meanLevel(photo))
        }
        #expect(shifts.allSatisfy { abs($0) > 5 }, "every seed visibly shifts the levels: \(shifts)")
        #expect(shifts.contains { $0 > 0 } && shifts.contains { $0 < 0 }, "seeds brighten and darken: \(shifts)")
    }

    @Test func gammaMovesMidTonesAndKeepsBlackAndWhite() throws {
        let image = RGBAImage(width: 3, height: 1, pixels: [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255])
        let dark = ToneAdjustments.gamma(image, 1.6)
        let light = ToneAdjustments.gamma(image, 0.65)
        #expect(dark.pixels[0] == 0 && dark.pixels[8] == 255 && light.pixels[0] == 0 && light.pixels[8] == 255)
        #expect(dark.pixels[4] < 100 && light.pixels[4] > 150)
        let out = try ImageTransformation.gamma.apply(to: photo, seed: 3)
        #expect(abs(TestImages.meanLevel(out) - TestImages.meanLevel(photo)) > 10)
    }

    @Test func rotationKeepsSizeAndCentreAndBlackensCorners() throws {
        let out = try ImageTransformation.rotate3.apply(to: photo, seed: 1)
        #expect(out.width == photo.width && out.height == photo.height)
        #expect(TestImages.pixel(out, 0, 0) == [0, 0, 0, 255])
        #expect(TestImages.pixel(out, out.width - 1, out.height - 1) == [0, 0, 0, 255])
        // Rotating a uniform image about its centre leaves the interior unchanged.
        let grey = RGBAImage(width: 40, height: 30, fill: (100, 150, 200))
        let turned = Resampling.rotated(grey, degrees: 3, fill: (0, 0, 0))
        #expect(turned.channel(20, 15, 0) == 100 && turned.channel(20, 15, 1) == 150 && turned.channel(20, 15, 2) == 200)
        // A 3° turn moves a point 100 px right of the centre by about 5 px vertically.
        var dot = RGBAImage(width: 301, height: 301, fill: (0, 0, 0))
        dot.fill(x: 249, y: 149, width: 3, height: 3, (255, 255, 255))
        let moved = Resampling.rotated(dot, degrees: 3, fill: (0, 0, 0))
        let brightest = (0..<301).max { moved.channel(250, $0, 0) < moved.channel(250, $1, 0) } ?? 0
        #expect(abs(brightest - 145) <= 1, "counter-clockwise turn lifts the right side: row \(brightest)")
    }

    @Test func aTiltedPrintShrinksItsFarEdgeAndKeepsItsSizeWhenFacingTheCamera() throws {
        let white = RGBAImage(width: 200, height: 100, fill: (255, 255, 255))
        // Facing the camera: the picture itself inside a 4 % frame.
        let facing = Resampling.tilted(white, tiltDown: 0, tiltRight: 0, fill: (0, 0, 0))
        #expect(facing.width == 200 + 2 * 8 && facing.height == 100 + 2 * 8)
        #expect(facing.channel(8, 8, 0) == 255 && facing.channel(7, 7, 0) == 0)
        // The top leaning away: the top edge is narrower than the bottom one.
        let away = Resampling.tilted(white, tiltDown: 20, tiltRight: 0, fill: (0, 0, 0))
        func widthOfRow(_ y: Int) -> Int { (0..<away.width).filter { away.channel($0, y, 0) > 128 }.count }
        let top = (0..<away.height).first { widthOfRow($0) > 0 } ?? 0, bottom = (0..<away.height).last { widthOfRow($0) > 0 } ?? 0
        #expect(widthOfRow(top + 1) < widthOfRow(bottom - 1) * 9 / 10, "far edge \(widthOfRow(top + 1)) px, near edge \(widthOfRow(bottom - 1)) px")
        // The right edge leaning away: the right side is shorter than the left.
        let side = Resampling.tilted(white, tiltDown: 0, tiltRight: 20, fill: (0, 0, 0))
        func heightOfColumn(_ x: Int) -> Int { (0..<side.height).filter { side.channel(x, $0, 0) > 128 }.count }
        let left = (0..<side.width).first { heightOfColumn($0) > 0 } ?? 0, right = (0..<side.width).last { heightOfColumn($0) > 0 } ?? 0
        #expect(heightOfColumn(right - 1) < heightOfColumn(left + 1) * 9 / 10)
        let m: [[Double]] = [[2, 0, 1], [1, 3, 0], [0.5, 0, 1]]
        let inverse = Resampling.inverse3x3(m)
        for i in 0..<3 { for j in 0..<3 {
            let product = (0..<3).reduce(0.0) { $0 + m[i][$1] * inverse[$1][j] }
            #expect(abs(product - (i == j ? 1 : 0)) < 1e-12)
        } }
        for transformation in [ImageTransformation.keystone10, .keystone20] {
            let out = try transformation.apply(to: photo, seed: 3)
            #expect(out.width > photo.width * 9 / 10 && out.height > photo.height * 9 / 10, "\(transformation): the print keeps about its size")
        }
    }

    @Test func sepiaVignetteTonesBrownAndDarkensTheCorners() throws {
        let grey = RGBAImage(width: 101, height: 101, fill: (128, 128, 128))
        let toned = ColourFilters.sepiaVignette(grey, strength: 1, fade: 20, vignette: 0.4)
        let centre = (0..<3).map { Int(toned.channel(50, 50, $0)) }, corner = (0..<3).map { Int(toned.channel(0, 0, $0)) }
        #expect(centre[0] > centre[1] && centre[1] > centre[2], "sepia: red over green over blue (\(centre))")
        #expect(corner[0] < centre[0] * 7 / 10, "the vignette takes about 40 % at the corners (\(corner) against \(centre))")
        let out = try ImageTransformation.sepiaVignette.apply(to: photo, seed: 1)
        #expect(out.width == photo.width && out.height == photo.height)
    }

    @Test func whiteBalanceScalesRedAndBlueOppositeWays() throws {
        let grey = RGBAImage(width: 4, height: 4, fill: (100, 100, 100))
        let warm = ColourFilters.whiteBalance(grey, gains: (red: 1.2, green: 1, blue: 0.8))
        #expect((0..<3).map { warm.channel(1, 1, $0) } == [120, 100, 80])
        let clipped = ColourFilters.whiteBalance(RGBAImage(width: 1, height: 1, fill: (250, 0, 0)), gains: (red: 1.3, green: 1, blue: 1))
        #expect(clipped.channel(0, 0, 0) == 255)
        let out = try ImageTransformation.whiteBalance.apply(to: photo, seed: 1)
        let red = (0..<10).map { TestImages.pixel(out, $0 * out.width / 10, out.height / 2)[0] }
        #expect(out.width == photo.width && !red.isEmpty)
    }

    @Test func blurKeepsFlatAreasAndSoftensDetail() throws {
        let flat = RGBAImage(width: 20, height: 10, fill: (30, 60, 90))
        #expect(GaussianBlur.blurred(flat, sigma: 2) == flat)
        let out = try ImageTransformation.blur.apply(to: photo, seed: 1)
        #expect(out.width == photo.width && out.height == photo.height)
        #expect(TestImages.meanAbsoluteDifference(out, photo) > 3)
        // Detail (difference between horizontal neighbours) drops.
        func detail(_ b: PixelBuffer) -> Int {
            var sum = 0
            for y in 0..<b.height { b.withRow(y) { r in for x in 1..<b.width { sum += abs(Int(r[4 * x + 1]) - Int(r[4 * x - 3])) } } }
            return sum
        }
        #expect(detail(out) * 2 < detail(photo))
    }

    @Test func flipMirrorsAndTwoFlipsRestore() throws {
        let out = try ImageTransformation.flipHorizontal.apply(to: photo, seed: 1)
        #expect(out.width == photo.width && out.height == photo.height)
        for (x, y) in [(0, 0), (17, 40), (photo.width - 1, photo.height - 1)] {
            #expect(TestImages.pixel(out, x, y) == TestImages.pixel(photo, photo.width - 1 - x, y))
        }
        #expect(try ImageTransformation.flipHorizontal.apply(to: out, seed: 1) == photo)
    }

    @Test func textOverlayDrawsWhiteGlyphsInABand() throws {
        let out = try ImageTransformation.textOverlay.apply(to: photo, seed: 5)
        #expect(out.width == photo.width && out.height == photo.height)
        var changedRows = Set<Int>()
        var whitePixels = 0
        for y in 0..<photo.height {
            for x in 0..<photo.width where TestImages.pixel(out, x, y) != TestImages.pixel(photo, x, y) {
                changedRows.insert(y)
                if TestImages.pixel(out, x, y) == [255, 255, 255, 255] { whitePixels += 1 }
            }
        }
        #expect(whitePixels > 100)
        let band = (changedRows.max() ?? 0) - (changedRows.min() ?? 0)
        #expect(band > 0 && band < photo.height / 5, "text stays in one band, spans \(band) rows")
    }

    @Test func blockFontDrawsKnownGlyphs() {
        #expect(BlockFont.isSet("T", column: 2, row: 6) && !BlockFont.isSet("T", column: 0, row: 6))
        #expect(BlockFont.isSet("l", column: 0, row: 6) == BlockFont.isSet("L", column: 0, row: 6))
        #expect(!BlockFont.isSet("~", column: 2, row: 3))
        #expect(TextOverlay.width(of: "AB", cell: 2) == 22)
    }

    @Test func stretchWidensByAFifthOnly() throws {
        let out = try ImageTransformation.stretch.apply(to: photo, seed: 1)
        #expect(out.width == Int((Double(photo.width) * 1.2).rounded()))
        #expect(out.height == photo.height)
        #expect(abs(TestImages.meanLevel(out) - TestImages.meanLevel(photo)) < 2)
    }

    @Test func grayscaleMakesTheChannelsEqual() throws {
        let out = try ImageTransformation.grayscale.apply(to: photo, seed: 1)
        #expect(out.width == photo.width && out.height == photo.height)
        var coloured = 0
        for y in 0..<out.height {
            out.withRow(y) { r in for x in 0..<out.width where r[4 * x] != r[4 * x + 1] || r[4 * x] != r[4 * x + 2] { coloured += 1 } }
        }
        #expect(coloured == 0)
        let white = RGBAImage(width: 1, height: 1, pixels: [255, 255, 255, 255])
        #expect(ToneAdjustments.grayscale(white).pixels == [255, 255, 255, 255])
    }

    @Test func jpegRoundTripsKeepSizeAndDegradeWithQuality() throws {
        let q75 = try ImageTransformation.jpegQ75.apply(to: photo, seed: 1)
        let q20 = try ImageTransformation.jpegQ20.apply(to: photo, seed: 1)
        #expect(q75.width == photo.width && q75.height == photo.height && q20.width == photo.width)
        let e75 = TestImages.meanAbsoluteDifference(q75, photo), e20 = TestImages.meanAbsoluteDifference(q20, photo)
        #expect(e75 > 0 && e75 < e20, "q75 error \(e75) should be below q20 error \(e20)")
    }

    @Test func grayInputIsAccepted() throws {
        let gray = try PixelBuffer(format: .gray8, width: 8, height: 4, bytes: (0..<32).map { UInt8($0 * 8) })
        for transformation in ImageTransformation.allCases {
            let out = try transformation.apply(to: gray, seed: 9)
            #expect(out.format == .rgba8 && out.width > 0 && out.height > 0, "\(transformation)")
        }
    }
}
