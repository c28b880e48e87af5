import Testing
@testable import PixelBuffers

/// `glimpse inspect --dump` writes what ``PAMWriter`` encodes: a P7 RGB_ALPHA file whose
/// payload is exactly the decoded pixels.
@Suite struct PAMWriterTests {
    /// Splits a PAM file into its header fields and payload.
    static func parse(_ bytes: [UInt8]) throws -> (fields: [String: String], payload: [UInt8]) {
        let marker = Array("ENDHDR\n".utf8)
        var end = 0
        while end + marker.count <= bytes.count, Array(bytes[end..<(end + marker.count)]) != marker { end += 1 }
        let header = String(decoding: bytes[0..<end], as: UTF8.self).split(separator: "\n")
        #expect(header.first == "P7")
        var fields = [String: String]()
        for line in header.dropFirst() {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return (fields, Array(bytes[(end + marker.count)...]))
    }

    @Test func pamHoldsTheDecodedRGBAPixels() throws {
        let image = try ImageDecoder().decode(file: TestData.path("pngsuite/basn6a16.png"))
        let (fields, payload) = try Self.parse(PAMWriter.encode(image.pixels))
        #expect(fields == ["WIDTH": "32", "HEIGHT": "32", "DEPTH": "4", "MAXVAL": "255", "TUPLTYPE": "RGB_ALPHA"])
        #expect(payload == image.pixels.packedBytes())
        let reference = TestData.pngRows.first { $0.file == "basn6a16.png" }
        #expect(SHA256.hex(payload) == reference?["sha256_rgba8"])
    }

    @Test func pamOfAGrayJpegExpandsToRGBA() throws {
        let image = try ImageDecoder().decode(file: TestData.path("jpeg/variant_grayscale.jpg"))
        let (fields, payload) = try Self.parse(PAMWriter.encode(image.pixels))
        #expect(fields["DEPTH"] == "4" && fields["WIDTH"] == "600" && fields["HEIGHT"] == "400")
        #expect(payload.count == 600 * 400 * 4)
        let gray = image.pixels.packedBytes()
        #expect(payload[0..<4] == [gray[0], gray[0], gray[0], 255])
    }

    @Test func pamOfARegionViewHasNoPadding() throws {
        let image = try ImageDecoder().decode(file: TestData.path("jpeg/testorig.jpg"))
        let view = try image.pixels.region(PixelRect(x: 3, y: 4, width: 5, height: 6))
        let (fields, payload) = try Self.parse(PAMWriter.encode(view))
        #expect(fields["WIDTH"] == "5" && fields["HEIGHT"] == "6")
        #expect(payload == view.packedBytes())
    }
}
