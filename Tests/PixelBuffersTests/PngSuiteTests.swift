import Testing
@testable import PixelBuffers

/// Every PngSuite file against the reference decode (RGBA8, `round(v*255/(2^d-1))`).
@Suite struct PngSuiteTests {
    static let okRows = TestData.pngRows.filter(\.isOK)
    static let errorRows = TestData.pngRows.filter { !$0.isOK }

    @Test func theReferenceTableCoversTheWholeSuite() {
        #expect(Self.okRows.count == 160)
        #expect(Self.errorRows.count == 14)
    }

    @Test(arguments: okRows)
    func decodesToTheReferencePixels(_ row: TestData.Row) throws {
        let image = try ImageDecoder().decode(file: TestData.path("pngsuite/" + row.file))
        #expect(image.info.format == .png)
        #expect(image.pixels.format == .rgba8)
        #expect(image.pixels.width == Int(row["width"]))
        #expect(image.pixels.height == Int(row["height"]))
        #expect(SHA256.hex(image.pixels.packedBytes()) == row["sha256_rgba8"])
    }

    @Test(arguments: errorRows)
    func rejectsTheCorruptFilesWithATypedError(_ row: TestData.Row) {
        let path = TestData.path("pngsuite/" + row.file)
        do {
            _ = try ImageDecoder().decode(file: path)
            Issue.record("\(row.file) decoded but must be rejected")
        } catch {
            switch error {
            case .corruptData(let source, .png, _), .truncated(let source, .png, _):
                #expect(source == path)
                #expect(error.description.hasPrefix(path + ": "))
            default:
                Issue.record("\(row.file): unexpected error \(error)")
            }
        }
    }

    @Test(arguments: okRows.filter { $0.file.hasPrefix("basi") })
    func interlacedAndNonInterlacedTwinsDecodeIdentically(_ row: TestData.Row) throws {
        let twin = "basn" + row.file.dropFirst(4)
        let a = try ImageDecoder().decode(file: TestData.path("pngsuite/" + row.file))
        let b = try ImageDecoder().decode(file: TestData.path("pngsuite/" + twin))
        #expect(a.pixels == b.pixels)
    }
}
