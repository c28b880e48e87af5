import Testing
@testable import PixelBuffers

/// At scale 1 a region decode equals the same region cropped from a full decode.
@Suite struct RegionDecodeTests {
    static let pngFiles = ["basn2c08.png", "basn6a16.png", "basn3p01.png", "basi6a16.png", "basi3p02.png", "basn0g04.png"]
    static let jpegFiles = [
        "variant_baseline_420.jpg", "variant_baseline_422.jpg", "variant_baseline_444.jpg", "variant_progressive.jpg",
        "variant_restart.jpg", "variant_grayscale.jpg", "variant_cmyk.jpg", "variant_odd_size.jpg",
        "variant_arith_progressive.jpg", "testimgari.jpg", "testorig.jpg",
    ]
    /// Odd sizes and offsets, iMCU-aligned and not, touching every edge.
    static let pngRegions = [
        PixelRect(x: 1, y: 1, width: 5, height: 7), PixelRect(x: 0, y: 0, width: 32, height: 1),
        PixelRect(x: 31, y: 0, width: 1, height: 32), PixelRect(x: 7, y: 9, width: 17, height: 3),
        PixelRect(x: 16, y: 16, width: 16, height: 16),
    ]
    static let jpegRegions = [
        PixelRect(x: 1, y: 1, width: 5, height: 7), PixelRect(x: 13, y: 17, width: 101, height: 33),
        PixelRect(x: 16, y: 16, width: 16, height: 16), PixelRect(x: 8, y: 0, width: 9, height: 149),
        PixelRect(x: 0, y: 100, width: 227, height: 49), PixelRect(x: 200, y: 120, width: 27, height: 29),
        PixelRect(x: 111, y: 61, width: 1, height: 1),
    ]

    @Test(arguments: pngFiles)
    func pngRegionEqualsCropOfFullDecode(_ file: String) throws {
        let path = TestData.path("pngsuite/" + file)
        let full = try ImageDecoder().decode(file: path)
        for rect in Self.pngRegions {
            let part = try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(rect)))
            #expect(part.pixels == (try full.pixels.region(rect)), "\(file) \(rect)")
            #expect(part.region == rect)
            #expect(part.decodedRegion == rect)
        }
    }

    @Test(arguments: jpegFiles)
    func jpegRegionEqualsCropOfFullDecode(_ file: String) throws {
        let path = TestData.path("jpeg/" + file)
        let full = try ImageDecoder().decode(file: path)
        let bigger = full.pixels.width > 300
        let regions = Self.jpegRegions + (bigger ? [
            PixelRect(x: 591, y: 391, width: 9, height: full.pixels.height - 391),
            PixelRect(x: 233, y: 119, width: 250, height: 161), PixelRect(x: 32, y: 32, width: 64, height: 64),
        ] : [])
        for rect in regions {
            let part = try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(rect)))
            #expect(part.pixels == (try full.pixels.region(rect)), "\(file) \(rect)")
            #expect(part.scale == .full)
        }
    }

    @Test func orientedRegionEqualsCropOfOrientedDecode() throws {
        for n in 1...8 {
            let path = TestData.path("exif-orientation/Landscape_\(n).jpg")
            let full = try ImageDecoder().decode(file: path)
            #expect(full.pixels.width == 1800 && full.pixels.height == 1200)
            for rect in [PixelRect(x: 101, y: 37, width: 333, height: 211), PixelRect(x: 1790, y: 1100, width: 10, height: 100)] {
                let part = try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(rect)))
                #expect(part.pixels == (try full.pixels.region(rect)), "Landscape_\(n) \(rect)")
            }
        }
    }

    @Test func fractionalRegionCoversTheRoundedOutwardPixels() throws {
        let path = TestData.path("exif-orientation/Portrait_6.jpg")
        let image = try ImageDecoder().decode(
            file: path, options: DecodeOptions(region: .fractions(x: 0.5, y: 0.25, width: 0.5, height: 0.5)))
        #expect(image.info.orientedWidth == 1200 && image.info.orientedHeight == 1800)
        #expect(image.region == PixelRect(x: 600, y: 450, width: 600, height: 900))
        #expect(image.pixels.width == 600 && image.pixels.height == 900)
        let odd = try ImageDecoder().decode(
            file: TestData.path("jpeg/testorig.jpg"), options: DecodeOptions(region: .fractions(x: 0.1, y: 0.1, width: 0.3, height: 0.3)))
        // 227 × 0.1 = 22.7 → 22; 227 × 0.4 = 90.8 → 91; 149 × 0.1 = 14.9 → 14; 149 × 0.4 = 59.6 → 60.
        #expect(odd.region == PixelRect(x: 22, y: 14, width: 69, height: 46))
    }
}
