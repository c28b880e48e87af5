import Foundation
import Testing
@testable import PixelBuffers

@Suite struct SemanticContentDescriptorTests {
    @Test func fromAFileWithARegionKeepsThePixelsAndTheirOrigin() throws {
        let path = TestData.path("exif-orientation/Landscape_3.jpg")
        let region = DecodeOptions.Region.pixels(PixelRect(x: 10, y: 20, width: 300, height: 200))
        let descriptor = try SemanticContentDescriptor(contentsOfFile: path, region: region, labels: ["test"])
        #expect(descriptor.source == .file(path: path))
        #expect(descriptor.region == region)
        #expect(descriptor.labels == ["test"])
        #expect(descriptor.pixelBuffer?.width == 300 && descriptor.pixelBuffer?.height == 200)
        #expect(descriptor.decoded?.appliedOrientation == .down)
    }

    @Test func fromDataEqualsFromFile() throws {
        let path = TestData.path("pngsuite/basn3p08.png")
        let data = Data(try TestData.readFile(path))
        let a = try SemanticContentDescriptor(data: data, name: "palette")
        let b = try SemanticContentDescriptor(contentsOfFile: path)
        #expect(a.pixelBuffer == b.pixelBuffer)
        #expect(a.source.description == "palette")
    }

    @Test func fromRawPixelsDecodesNothing() throws {
        let buffer = try PixelBuffer(format: .rgba8, width: 1, height: 1, bytes: [1, 2, 3, 4])
        let descriptor = SemanticContentDescriptor(pixelBuffer: buffer, labels: ["a", "b"])
        #expect(descriptor.source == .pixels)
        #expect(descriptor.decoded == nil)
        #expect(descriptor.pixelBuffer == buffer)
    }

    @Test func decodeErrorsNameTheInput() {
        #expect(throws: DecodeError.emptyFile(source: "empty")) { try SemanticContentDescriptor(data: Data(), name: "empty") }
    }
}
