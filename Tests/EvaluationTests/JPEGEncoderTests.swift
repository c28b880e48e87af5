import PixelBuffers
import Testing
@testable import Evaluation

/// The JPEG encoder produces files the decoder reads back close to the original.
@Suite struct JPEGEncoderTests {
    @Test func encodedPhotoDecodesBackToNearlyTheSamePixels() throws {
        let photo = try TestImages.photo()
        let bytes = try JPEGEncoder(quality: 92).encode(photo)
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        let decoded = try ImageDecoder().decode(bytes, source: "round trip", options: DecodeOptions(alwaysRGBA: true)).pixels
        #expect(decoded.width == photo.width && decoded.height == photo.height)
        let error = TestImages.meanAbsoluteDifference(decoded, photo)
        #expect(error < 4, "mean error \(error) per channel at quality 92")
    }

    @Test func lowerQualityMakesSmallerFiles() throws {
        let photo = try TestImages.photo()
        let small = try JPEGEncoder(quality: 20).encode(photo)
        let large = try JPEGEncoder(quality: 75).encode(photo)
        #expect(small.count < large.count)
    }

    @Test func paddedRegionsAndGrayBuffersEncode() throws {
        let photo = try TestImages.photo()
        let region = try photo.region(PixelRect(x: 13, y: 7, width: 101, height: 57))
        let decoded = try ImageDecoder().decode(try JPEGEncoder(quality: 95).encode(region), options: DecodeOptions(alwaysRGBA: true)).pixels
        #expect(decoded.width == 101 && decoded.height == 57)
        #expect(TestImages.meanAbsoluteDifference(decoded, region) < 5)

        let gray = try PixelBuffer(format: .gray8, width: 16, height: 16, bytes: (0..<256).map { UInt8($0) })
        let grayDecoded = try ImageDecoder().decode(try JPEGEncoder(quality: 100).encode(gray)).pixels
        #expect(grayDecoded.format == .gray8 && grayDecoded.width == 16)
    }

    @Test func qualityOutsideOneToHundredIsRejected() {
        #expect(throws: JPEGEncodeError.invalidQuality(0)) { try JPEGEncoder(quality: 0) }
        #expect(throws: JPEGEncodeError.invalidQuality(101)) { try JPEGEncoder(quality: 101) }
    }
}

/// The PNG encoder is lossless through the decoder.
@Suite struct PNGEncoderTests {
    @Test func encodedRegionDecodesToTheSamePixels() throws {
        let photo = try TestImages.photo()
        let region = try photo.region(PixelRect(x: 31, y: 9, width: 77, height: 40))
        let bytes = try PNGEncoder().encode(region)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try ImageDecoder().decode(bytes, options: DecodeOptions(alwaysRGBA: true)).pixels == region)
        let gray = try PixelBuffer(format: .gray8, width: 5, height: 3, bytes: (0..<15).map { UInt8($0 * 17) })
        #expect(try ImageDecoder().decode(try PNGEncoder().encode(gray), options: DecodeOptions(alwaysRGBA: true)).pixels.row(2)?[0] == 170)
    }
}
