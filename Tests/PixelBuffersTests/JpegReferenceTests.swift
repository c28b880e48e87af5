import Testing
@testable import PixelBuffers

/// Every JPEG against the hash of what libjpeg-turbo's `djpeg -ppm` writes (stored
/// orientation, ISLOW IDCT, fancy upsampling).
@Suite struct JpegReferenceTests {
    static let okRows = TestData.jpegRows.filter(\.isOK)
    static let errorRows = TestData.jpegRows.filter { !$0.isOK }

    @Test func theReferenceTableCoversEveryFile() {
        #expect(Self.okRows.count == 30)
        #expect(Self.errorRows.count == 7)
    }

    @Test(arguments: okRows)
    func decodesToDjpegsPixels(_ row: TestData.Row) throws {
        let options = DecodeOptions(applyOrientation: false)
        let image = try ImageDecoder().decode(file: TestData.jpegPath(row.file), options: options)
        #expect(image.info.format == .jpeg)
        #expect(image.pixels.width == Int(row["width"]))
        #expect(image.pixels.height == Int(row["height"]))
        #expect(image.pixels.format == (row["components"] == "1" ? .gray8 : .rgba8))
        #expect(SHA256.hex(image.pixels.djpegBytes()) == row["sha256_pixels"])
    }

    @Test func grayscaleDecodesToRGBAWhenAsked() throws {
        let path = TestData.path("jpeg/variant_grayscale.jpg")
        let gray = try ImageDecoder().decode(file: path)
        let rgba = try ImageDecoder().decode(file: path, options: DecodeOptions(alwaysRGBA: true))
        #expect(gray.pixels.format == .gray8)
        #expect(rgba.pixels.format == .rgba8)
        #expect(rgba.pixels == gray.pixels.convertedToRGBA8())
    }

    @Test func twelveBitPrecisionIsUnsupported() {
        let path = TestData.path("jpeg/monkey12.jpg")
        #expect(throws: DecodeError.unsupported(source: path, format: .jpeg, reason: "Unsupported JPEG data precision 12")) {
            try ImageDecoder().decode(file: path)
        }
    }
}
