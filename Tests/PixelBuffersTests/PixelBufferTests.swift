import Testing
@testable import PixelBuffers

/// Region views share storage and address the right pixels.
@Suite struct PixelBufferTests {
    static func numbered(width: Int, height: Int) throws -> PixelBuffer {
        try PixelBuffer(format: .gray8, width: width, height: height, bytes: (0..<(width * height)).map { UInt8($0) })
    }

    @Test func regionViewAddressesTheRightPixels() throws {
        let buffer = try Self.numbered(width: 6, height: 4)
        let view = try buffer.region(PixelRect(x: 2, y: 1, width: 3, height: 2))
        #expect(view.width == 3 && view.height == 2 && view.bytesPerRow == 6)
        #expect(view.row(0) == [8, 9, 10])
        #expect(view.row(1) == [14, 15, 16])
        #expect(view.row(2) == nil)
        #expect(view.packedBytes() == [8, 9, 10, 14, 15, 16])
        let inner = try view.region(PixelRect(x: 1, y: 1, width: 2, height: 1))
        #expect(inner.packedBytes() == [15, 16])
    }

    @Test func regionViewsOfDecodedImagesMatchRegionDecodes() throws {
        let path = TestData.path("pngsuite/basn6a08.png")
        let full = try ImageDecoder().decode(file: path).pixels
        let rect = PixelRect(x: 5, y: 6, width: 7, height: 8)
        let view = try full.region(rect)
        #expect(view.format == .rgba8)
        #expect(!view.isContiguous)
        #expect(view.packedBytes().count == 7 * 8 * 4)
        #expect(view == (try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(rect)))).pixels)
    }

    @Test func regionOutsideTheBufferIsRefused() throws {
        let buffer = try Self.numbered(width: 6, height: 4)
        let rect = PixelRect(x: 4, y: 0, width: 3, height: 1)
        #expect(throws: PixelBufferError.regionOutside(rect, width: 6, height: 4)) { try buffer.region(rect) }
        #expect(throws: PixelBufferError.self) { try buffer.region(PixelRect(x: 0, y: 0, width: 0, height: 1)) }
    }

    @Test func orientingAGrayBufferMovesEveryPixel() throws {
        let buffer = try Self.numbered(width: 3, height: 2) // 0 1 2 / 3 4 5
        #expect(buffer.oriented(.right).packedBytes() == [3, 0, 4, 1, 5, 2])
        #expect(buffer.oriented(.left).packedBytes() == [2, 5, 1, 4, 0, 3])
        #expect(buffer.oriented(.down).packedBytes() == [5, 4, 3, 2, 1, 0])
        #expect(buffer.oriented(.upMirrored).packedBytes() == [2, 1, 0, 5, 4, 3])
        #expect(buffer.oriented(.downMirrored).packedBytes() == [3, 4, 5, 0, 1, 2])
        #expect(buffer.oriented(.leftMirrored).packedBytes() == [0, 3, 1, 4, 2, 5])
        #expect(buffer.oriented(.rightMirrored).packedBytes() == [5, 2, 4, 1, 3, 0])
    }
}
