import Testing
@testable import PixelBuffers

/// `minimumShortSide` picks the smallest DCT scale that still delivers that many pixels.
@Suite struct ScaleSelectionTests {
    static let photo = TestData.path("exif-orientation/Landscape_1.jpg") // 1800 × 1200

    @Test(arguments: [
        (1, DCTScale.oneEighth), (150, .oneEighth), (151, .oneQuarter), (300, .oneQuarter),
        (301, .oneHalf), (600, .oneHalf), (601, .full), (1200, .full), (5000, .full),
    ])
    func picksTheSmallestSufficientScale(_ side: Int, _ expected: DCTScale) throws {
        let image = try ImageDecoder().decode(file: Self.photo, options: DecodeOptions(minimumShortSide: side))
        #expect(image.scale == expected)
        #expect(image.pixels.width == expected.scaled(1800))
        #expect(image.pixels.height == expected.scaled(1200))
        #expect(min(image.pixels.width, image.pixels.height) >= min(side, 1200))
    }

    @Test(arguments: [(1, DCTScale.oneEighth), (225, .oneEighth), (226, .oneQuarter), (451, .oneHalf), (901, .full)])
    func aMinimumLongSideAlsoHolds(_ longSide: Int, _ expected: DCTScale) throws {
        // 1/8 gives 225 × 150, 1/4 450 × 300, 1/2 900 × 600: the short side alone would pick 1/8.
        let options = DecodeOptions(minimumShortSide: 100, minimumLongSide: longSide)
        let image = try ImageDecoder().decode(file: Self.photo, options: options)
        #expect(image.scale == expected)
        #expect(max(image.pixels.width, image.pixels.height) >= min(longSide, 1800))
        #expect(throws: DecodeError.self) { try ImageDecoder().decode(file: Self.photo, options: DecodeOptions(minimumShortSide: 1, minimumLongSide: 0)) }
    }

    @Test func smallImageSidesShrinkOnlySmallRegionsTheMinimumsAlreadyShrink() throws {
        let small = DecodeOptions.SmallImageSides(maxPixels: 640 * 480, minimumShortSide: 120, minimumLongSide: 160)
        func scale(_ region: PixelRect?, short: Int, long: Int) throws -> DCTScale {
            try ImageDecoder().decode(file: Self.photo, options: DecodeOptions(region: region.map { .pixels($0) }, minimumShortSide: short,
                                                                               minimumLongSide: long, smallImageSides: small)).scale
        }
        // A 640 × 480 region: 1/2 by the minimums (320 × 240), 1/4 (160 × 120) by the small rule.
        let region = PixelRect(x: 200, y: 100, width: 640, height: 480)
        #expect(try scale(region, short: 192, long: 320) == .oneQuarter)
        // One pixel more than the bound: the minimums alone.
        #expect(try scale(PixelRect(x: 200, y: 100, width: 641, height: 480), short: 192, long: 320) == .oneHalf)
        // A region the minimums keep whole stays whole (320 × 320: 1/2 would leave 160).
        #expect(try scale(PixelRect(x: 0, y: 0, width: 320, height: 320), short: 192, long: 320) == .full)
        // The whole 1800 × 1200 photo is over the bound: 1/4 (450 × 300) by the minimums.
        #expect(try scale(nil, short: 192, long: 320) == .oneQuarter)
        // Non-positive sides are refused with a typed error.
        let bad = DecodeOptions.SmallImageSides(maxPixels: 1, minimumShortSide: 0, minimumLongSide: 1)
        #expect(throws: DecodeError.self) {
            try ImageDecoder().decode(file: Self.photo, options: DecodeOptions(minimumShortSide: 1, smallImageSides: bad))
        }
    }

    @Test func scaleIsChosenForTheRegionNotTheWholeImage() throws {
        let options = DecodeOptions(region: .pixels(PixelRect(x: 100, y: 100, width: 800, height: 400)), minimumShortSide: 64)
        let image = try ImageDecoder().decode(file: Self.photo, options: options)
        #expect(image.scale == .oneQuarter) // 1/8 gives 50 rows, 1/4 gives 100
        #expect(image.decodedRegion == PixelRect(x: 25, y: 25, width: 200, height: 100))
        #expect(image.pixels.width == 200 && image.pixels.height == 100)
    }

    @Test func scaledRegionEqualsCropOfScaledDecode() throws {
        let rect = PixelRect(x: 96, y: 64, width: 800, height: 480)
        let whole = try ImageDecoder().decode(file: Self.photo, options: DecodeOptions(minimumShortSide: 300))
        let part = try ImageDecoder().decode(file: Self.photo, options: DecodeOptions(region: .pixels(rect), minimumShortSide: 120))
        #expect(whole.scale == .oneQuarter && part.scale == .oneQuarter)
        #expect(part.pixels == (try whole.pixels.region(part.decodedRegion)))
    }

    @Test func pngIgnoresTheMinimumAndDecodesAtFullSize() throws {
        let image = try ImageDecoder().decode(file: TestData.path("pngsuite/basn2c08.png"), options: DecodeOptions(minimumShortSide: 2))
        #expect(image.scale == .full)
        #expect(image.pixels.width == 32)
    }
}
