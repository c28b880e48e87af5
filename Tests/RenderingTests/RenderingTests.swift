import Catalog
import Foundation
import Matching
import PixelBuffers
import Search
import Testing
@testable import Rendering

@Suite("Rendering: thumbnails, contact sheet, entity export")
struct RenderingTests {
    static let testdata = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("testdata")

    @Test func downsamplingAveragesBoxesAndKeepsTheAspectRatio() throws {
        // 4x2: left half black, right half white → 2x1: one black, one white pixel.
        var bytes: [UInt8] = []
        for _ in 0..<2 { for x in 0..<4 { bytes += x < 2 ? [0, 0, 0, 255] : [255, 255, 255, 255] } }
        let buffer = try PixelBuffer(format: .rgba8, width: 4, height: 2, bytes: bytes)
        let small = Thumbnailer.downsample(buffer, toFit: 2)
        #expect(small.width == 2 && small.height == 1)
        #expect(small.packedBytes() == [0, 0, 0, 255, 255, 255, 255, 255])
        #expect(Thumbnailer.downsample(buffer, toFit: 10).width == 4)
    }

    @Test func aThumbnailFitsItsSizeAndIsAJPEGOrAPNGForTransparentSources() throws {
        let thumbnailer = Thumbnailer(maxSide: 64)
        let jpeg = try thumbnailer.thumbnail(file: Self.testdata.appendingPathComponent("catalog/food/apricot.jpg").path)
        #expect(jpeg.mediaType == "image/jpeg")
        let decoded = try ImageDecoder().decode(jpeg.bytes)
        #expect(max(decoded.pixels.width, decoded.pixels.height) == 64)
        #expect(jpeg.dataURI.hasPrefix("data:image/jpeg;base64,/9j/"))
        let png = try thumbnailer.thumbnail(file: Self.testdata.appendingPathComponent("pngsuite/basn6a08.png").path)
        #expect(png.mediaType == "image/png")
        #expect(throws: ThumbnailError.self) { try thumbnailer.thumbnail(file: Self.testdata.appendingPathComponent("jpeg/corrupt_bad_marker.jpg").path) }
    }

    @Test func theContactSheetInlinesEveryImageAndEscapesText() async throws {
        let apricot = Self.testdata.appendingPathComponent("catalog/food/apricot.jpg").path
        let url = "glimpse://landmark/food%2Fapricot"
        let records = [
            PhotoMatchRecord.matches([SearchResultRow(kind: .landmark, id: "food/apricot", title: "<Apricot>", subtitle: nil, score: 0.9, url: url)], photo: apricot),
            PhotoMatchRecord.failure("missing.jpg: cannot read file", photo: "missing.jpg"),
            PhotoMatchRecord(photo: apricot, status: .noMatch),
        ]
        let html = await ContactSheet(thumbnailer: Thumbnailer(maxSide: 32)).html(records: records, landmarkThumbnails: [url: apricot])
        #expect(html.contains("3 photos: 1 matched, 1 no match, 1 failed."))
        #expect(html.contains("&lt;Apricot&gt;") && !html.contains("<Apricot>"))
        #expect(html.components(separatedBy: "src=\"data:image/jpeg;base64,").count - 1 == 3)
        #expect(html.contains("missing.jpg: cannot read file"))
        #expect(html.contains("0.900"))
        // The grid of photo cards and the filter: one radio per status with its count, and
        // a rule in the shared stylesheet that hides the other rows when it is checked.
        #expect(html.contains("<div class=\"sheet\">"))
        #expect(html.components(separatedBy: "<section class=\"photo ").count - 1 == 3)
        #expect(html.contains("id=\"show-all\" checked> All <b>3</b>"))
        for status in PhotoMatchRecord.Status.allCases {
            #expect(html.contains("id=\"show-\(status.rawValue)\">"))
            #expect(html.components(separatedBy: "<section class=\"photo \(status.rawValue)\">").count - 1 == 1)
            #expect(PageStyle.css.contains("body:has(#show-\(status.rawValue):checked) section.photo:not(.\(status.rawValue))"))
        }
        #expect(html.contains("Matched <b>1</b>") && html.contains("No match <b>1</b>") && html.contains("Failed <b>1</b>"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
    }

    @Test func exportFormatsAreListedRichestFirst() {
        #expect(ExportFormat.allCases == [.json, .text, .png])
    }
}
