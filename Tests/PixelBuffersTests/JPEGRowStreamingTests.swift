import Testing
import PixelBuffers

/// `ImageDecoder.decodeRows` streams a whole upright JPEG straight from libjpeg-turbo (no
/// image buffer) and hands over exactly the rows `decode` puts in its buffer, at the same
/// DCT scale; anything it cannot stream (a region, a rotated photo, damaged output) goes
/// through the buffered decode with the same rows.
@Suite struct JPEGRowStreamingTests {
    /// Concatenates the rows a decoder hands over, checking they arrive in order.
    struct Rows: DecodedRowSink {
        var bytes: [UInt8] = [], width = 0, height = 0, format = PixelFormat.rgba8, next = 0, outOfOrder = false
        mutating func begin(width: Int, height: Int, format: PixelFormat) {
            (self.width, self.height, self.format) = (width, height, format)
        }
        mutating func consume(row: UnsafeBufferPointer<UInt8>, y: Int) {
            if y != next { outOfOrder = true }
            next += 1
            bytes.append(contentsOf: row)
        }
    }

    static let jpegs = ["jpeg/variant_baseline_420.jpg", "jpeg/variant_baseline_422.jpg", "jpeg/variant_baseline_444.jpg",
                        "jpeg/variant_progressive.jpg", "jpeg/variant_restart.jpg", "jpeg/variant_odd_size.jpg",
                        "jpeg/variant_grayscale.jpg", "jpeg/variant_cmyk.jpg", "jpeg/testorig.jpg",
                        "exif-orientation/Landscape_1.jpg"]

    @Test(arguments: jpegs)
    func streamedRowsEqualTheBufferedDecodeAtEveryScale(_ file: String) throws {
        let bytes = try TestData.readFile(TestData.path(file))
        for options in [DecodeOptions(), DecodeOptions(minimumShortSide: 1), DecodeOptions(minimumShortSide: 60),
                        DecodeOptions(minimumShortSide: 192, minimumLongSide: 320), DecodeOptions(alwaysRGBA: true)] {
            let decoded = try ImageDecoder().decode(bytes, source: file, options: options)
            var rows = Rows()
            let summary = try ImageDecoder().decodeRows(bytes, source: file, options: options, into: &rows)
            #expect(summary.streamed, "\(file): a whole upright JPEG is streamed")
            #expect(summary.scale == decoded.scale && summary.format == decoded.pixels.format, "\(file) \(options)")
            #expect(rows.width == decoded.pixels.width && rows.height == decoded.pixels.height && !rows.outOfOrder)
            #expect(rows.bytes == decoded.pixels.packedBytes(), "\(file) \(options): other pixels than decode")
        }
    }

    @Test func aRotatedPhotoLeftAsStoredIsStreamed() throws {
        let file = "exif-orientation/Landscape_6.jpg"
        let bytes = try TestData.readFile(TestData.path(file))
        let options = DecodeOptions(minimumShortSide: 100, applyOrientation: false)
        let decoded = try ImageDecoder().decode(bytes, source: file, options: options)
        var rows = Rows()
        let summary = try ImageDecoder().decodeRows(bytes, source: file, options: options, into: &rows)
        #expect(summary.streamed && summary.scale == decoded.scale)
        #expect(rows.bytes == decoded.pixels.packedBytes() && rows.width == decoded.pixels.width)
    }

    @Test func aRegionOrARotatedPhotoIsDecodedIntoABufferWithTheSameRows() throws {
        let cases: [(String, DecodeOptions)] = [
            ("jpeg/testorig.jpg", DecodeOptions(region: .pixels(PixelRect(x: 10, y: 20, width: 50, height: 40)))),
            ("exif-orientation/Landscape_6.jpg", DecodeOptions(minimumShortSide: 100)),
            ("jpeg/corrupt_truncated_baseline.jpg", DecodeOptions(allowDamaged: true)),
        ]
        for (file, options) in cases {
            let bytes = try TestData.readFile(TestData.path(file))
            let decoded = try ImageDecoder().decode(bytes, source: file, options: options)
            var rows = Rows()
            let summary = try ImageDecoder().decodeRows(bytes, source: file, options: options, into: &rows)
            #expect(!summary.streamed, "\(file)")
            #expect(rows.bytes == decoded.pixels.packedBytes() && rows.width == decoded.pixels.width, "\(file)")
        }
    }

    @Test(arguments: ["jpeg/corrupt_truncated_baseline.jpg", "jpeg/corrupt_truncated_progressive.jpg",
                      "jpeg/corrupt_bitflips.jpg", "jpeg/corrupt_bad_marker.jpg"])
    func aDamagedJPEGFailsWithTheBufferedDecodesError(_ file: String) throws {
        let bytes = try TestData.readFile(TestData.path(file))
        var rows = Rows()
        let buffered = #expect(throws: DecodeError.self) { try ImageDecoder().decode(bytes, source: file) }
        let streamed = #expect(throws: DecodeError.self) { try ImageDecoder().decodeRows(bytes, source: file, into: &rows) }
        #expect(buffered?.description == streamed?.description, "\(file)")
        #expect(streamed?.description.contains(file) == true, "the error names the file")
    }

    @Test func invalidOptionsFailBeforeAnyRow() throws {
        let bytes = try TestData.readFile(TestData.path("jpeg/testorig.jpg"))
        var rows = Rows()
        #expect(throws: DecodeError.self) {
            try ImageDecoder().decodeRows(bytes, source: "testorig.jpg", options: DecodeOptions(minimumShortSide: 0), into: &rows)
        }
        #expect(rows.next == 0)
    }
}
