import Testing
@testable import PixelBuffers

/// Huge declared sizes are refused from the header; bad regions are refused with a reason.
@Suite struct LimitsTests {
    /// A PNG that is only a signature and an IHDR declaring `width`×`height` RGB8.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for v in [width, height] { bytes += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        bytes += [8, 2, 0, 0, 0, 0, 0, 0, 0] // depth, colour type, methods, (bogus) CRC
        return bytes
    }

    /// A JPEG that is SOI, SOF0 declaring `width`×`height` (3 components), SOS, a few bytes, EOI.
    static func jpegHeader(width: UInt16, height: UInt16) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8]
        bytes += [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
        bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xDA, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]
        bytes += [0x12, 0x34, 0x56, 0xFF, 0xD9]
        return bytes
    }

    @Test func pngDeclaring100000x100000IsRefusedFromItsHeader() {
        #expect(throws: DecodeError.tooLarge(source: "huge.png", width: 100_000, height: 100_000, limit: 150_000_000)) {
            try ImageDecoder().decode(Self.pngHeader(width: 100_000, height: 100_000), source: "huge.png")
        }
    }

    @Test func imagesThinnerThanTheAspectLimitAreRefusedFromTheirHeader() throws {
        #expect(throws: DecodeError.extremeAspectRatio(source: "wide.jpg", width: 65_000, height: 1, limit: 100)) {
            try ImageDecoder().decode(Self.jpegHeader(width: 65_000, height: 1), source: "wide.jpg")
        }
        #expect(throws: DecodeError.extremeAspectRatio(source: "tall.jpg", width: 100, height: 10_001, limit: 100)) {
            try ImageDecoder().decode(Self.jpegHeader(width: 100, height: 10_001), source: "tall.jpg")
        }
        // The limit is an option; 1:100 itself passes the check (and fails later, on the missing data).
        #expect(throws: DecodeError.extremeAspectRatio(source: "p.jpg", width: 1_000, height: 100, limit: 5)) {
            try ImageDecoder().decode(Self.jpegHeader(width: 1_000, height: 100), source: "p.jpg", options: DecodeOptions(maxAspectRatio: 5))
        }
        do {
            _ = try ImageDecoder().decode(Self.jpegHeader(width: 10_000, height: 100), source: "edge.jpg")
        } catch {
            if case .extremeAspectRatio = error { Issue.record("1:100 is accepted: \(error)") }
        }
    }

    @Test func pngDeclaringTheLargestPossibleSizeIsRefusedWithAReadableMessage() {
        do {
            _ = try ImageDecoder().decode(Self.pngHeader(width: .max, height: .max), source: "max.png")
            Issue.record("decoded")
        } catch {
            #expect(error == .tooLarge(source: "max.png", width: 4_294_967_295, height: 4_294_967_295, limit: 150_000_000))
            #expect(error.description.contains("18446744065119617025 pixels"))
        }
    }

    @Test func jpegDeclaring65500x65500IsRefusedFromItsHeader() throws {
        #expect(throws: DecodeError.tooLarge(source: "huge.jpg", width: 65_500, height: 65_500, limit: 150_000_000)) {
            try ImageDecoder().decode(Self.jpegHeader(width: 65_500, height: 65_500), source: "huge.jpg")
        }
        let info = try ImageDecoder().info(of: Self.jpegHeader(width: 65_500, height: 65_500))
        #expect(info.storedWidth == 65_500 && info.storedHeight == 65_500)
    }

    @Test func theCapIsConfigurable() {
        let path = TestData.path("exif-orientation/Landscape_1.jpg")
        #expect(throws: DecodeError.tooLarge(source: path, width: 1800, height: 1200, limit: 2_000_000)) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(maxPixels: 2_000_000))
        }
        #expect((try? ImageDecoder().decode(file: path, options: DecodeOptions(maxPixels: 2_160_000))) != nil)
    }

    @Test func regionOutsideTheImageIsRefused() {
        let path = TestData.path("exif-orientation/Landscape_6.jpg") // stored 1200×1800, upright 1800×1200
        let rect = PixelRect(x: 1790, y: 0, width: 20, height: 20)
        #expect(throws: DecodeError.regionOutside(source: path, region: rect, imageWidth: 1800, imageHeight: 1200)) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(rect)))
        }
        let tall = PixelRect(x: 0, y: 1300, width: 10, height: 10) // inside the stored image only
        #expect(throws: DecodeError.regionOutside(source: path, region: tall, imageWidth: 1800, imageHeight: 1200)) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(tall)))
        }
        #expect(throws: DecodeError.self) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(PixelRect(x: -1, y: 0, width: 5, height: 5))))
        }
        #expect(throws: DecodeError.self) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(region: .fractions(x: 0.8, y: 0, width: 0.3, height: 0.5)))
        }
    }

    @Test func emptyRegionIsRefused() {
        let path = TestData.path("pngsuite/basn2c08.png")
        let zero = PixelRect(x: 3, y: 3, width: 0, height: 5)
        #expect(throws: DecodeError.emptyRegion(source: path, region: zero.description)) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(region: .pixels(zero)))
        }
        // A fraction too thin to cover a pixel once rounded cannot happen (edges round
        // outward), but a zero fraction is empty.
        #expect(throws: DecodeError.self) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(region: .fractions(x: 0.5, y: 0.5, width: 0, height: 0.1)))
        }
        #expect(throws: DecodeError.invalidOptions(source: path, reason: "region fractions must be finite numbers")) {
            try ImageDecoder().decode(file: path, options: DecodeOptions(region: .fractions(x: .nan, y: 0, width: 1, height: 1)))
        }
    }
}
