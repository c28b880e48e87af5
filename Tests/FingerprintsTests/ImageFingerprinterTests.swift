import Foundation
import InstructionSetTesting
import PixelBuffers
import Testing
@testable import Fingerprints

/// ``ImageFingerprinter`` is the one fingerprinting path: files, bytes and pixels give the
/// same fingerprint, chosen by layout.
@Suite struct ImageFingerprinterTests {
    static let jpeg = testdataURL.appendingPathComponent("catalog/landmarks/grossmugl.jpg").path
    static let png = testdataURL.appendingPathComponent("samples/screenshot-hurricane-ridge.png").path

    @Test(arguments: [jpeg, png])
    func fileBytesAndDecodedPixelsGiveTheSameFingerprint(path: String) throws {
        for fingerprinter in [ImageFingerprinter.catalog, .query] {
            let fromFile = try fingerprinter.fingerprint(file: path)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(try fingerprinter.fingerprint(decoding: bytes, source: path) == fromFile)
            let pixels = try ImageDecoder().decode(file: path, options: fingerprinter.decodeOptions()).pixels
            #expect(fingerprinter.fingerprint(of: pixels) == fromFile)
            #expect(fromFile.views.count == fingerprinter.layout.viewCount)
            #expect(fromFile.layoutVersion == fingerprinter.layoutVersion)
        }
    }

    @Test func aRegionIsFingerprintedAsTheDecodedRegion() throws {
        let region = DecodeOptions.Region.fractions(x: 0.1, y: 0.2, width: 0.5, height: 0.6)
        let fingerprinter = ImageFingerprinter.query
        let pixels = try ImageDecoder().decode(file: Self.jpeg, options: fingerprinter.decodeOptions(region: region)).pixels
        #expect(try fingerprinter.fingerprint(file: Self.jpeg, region: region) == fingerprinter.fingerprint(of: pixels))
        #expect(try fingerprinter.fingerprint(file: Self.jpeg, region: region) != fingerprinter.fingerprint(file: Self.jpeg))
    }

    @Test func jpegsAreDecodedAtTheLayoutsDecodeSize() throws {
        let options = ImageFingerprinter.catalog.decodeOptions()
        #expect(options.minimumShortSide == ImageFingerprinter.decodeShortSide)
        #expect(options.minimumLongSide == ImageFingerprinter.decodeLongSide)
        #expect(options.applyOrientation)
        // A 640×480 photo decodes at 1/2 (320 × 240); 485×497 and 640×264 ones stay whole
        // (the long side, then the short side, would drop below the minimum).
        for (file, scale) in [("history-and-science/model-castle.jpg", DCTScale.oneHalf), ("objects/cement-mixer.jpg", .full),
                              ("objects/fire-truck.jpg", .full)] {
            let path = testdataURL.appendingPathComponent("catalog/" + file).path
            #expect(try ImageDecoder().decode(file: path, options: options).scale == scale, "\(file)")
        }
    }

    @Test func smallQueriesAreDecodedSmaller() throws {
        let catalog = ImageFingerprinter.catalog.decodeOptions()
        #expect(catalog.smallImageSides == nil)
        for orientations in QueryOrientations.allCases {
            let query = ImageFingerprinter.query(orientations: orientations)
            #expect(ImageFingerprinter.isQueryLayout(query.layout))
            var options = query.decodeOptions()
            #expect(options.smallImageSides == ImageFingerprinter.querySmallImageSides)
            options.smallImageSides = nil
            #expect(options == catalog, "large queries decode as the catalog does")
        }
        // The server builds its fingerprinter from the layout: same rule.
        #expect(ImageFingerprinter(layout: .query, maxPixels: 1_000_000).smallImageSides == ImageFingerprinter.querySmallImageSides)
        #expect(!ImageFingerprinter.isQueryLayout(.catalog) && !ImageFingerprinter.isQueryLayout(.fullFrame))
        // Explicit sizes win: no small-image rule.
        #expect(ImageFingerprinter(layout: .query, minimumShortSide: 192, minimumLongSide: 320).decodeOptions() == catalog)
        // As a query, a 640×480 photo decodes at 1/4 (160 × 120, the catalog at 1/2); 485×497
        // and 640×264 ones stay whole, as in the catalog. A region of more than 640 × 480
        // pixels follows the catalog's size.
        let options = ImageFingerprinter.query.decodeOptions()
        for (file, scale) in [("history-and-science/model-castle.jpg", DCTScale.oneQuarter), ("objects/cement-mixer.jpg", .full),
                              ("objects/fire-truck.jpg", .full)] {
            let path = testdataURL.appendingPathComponent("catalog/" + file).path
            #expect(try ImageDecoder().decode(file: path, options: options).scale == scale, "\(file)")
        }
        let small = ImageFingerprinter.querySmallImageSides
        var tight = options
        tight.smallImageSides = DecodeOptions.SmallImageSides(maxPixels: 640 * 480 - 1, minimumShortSide: small.minimumShortSide,
                                                              minimumLongSide: small.minimumLongSide)
        let castle = testdataURL.appendingPathComponent("catalog/history-and-science/model-castle.jpg").path
        #expect(try ImageDecoder().decode(file: castle, options: tight).scale == .oneHalf)
        // Files, bytes and decoded pixels still agree for queries decoded small.
        let query = ImageFingerprinter.query
        let pixels = try ImageDecoder().decode(file: castle, options: query.decodeOptions()).pixels
        #expect(pixels.width == 160 && pixels.height == 120)
        #expect(try query.fingerprint(file: castle) == query.fingerprint(of: pixels))
    }

    @Test func badFilesThrowTheDecodersTypedError() {
        let catalog = ImageFingerprinter.catalog, query = ImageFingerprinter.query
        do {
            _ = try catalog.fingerprint(decoding: [UInt8](repeating: 7, count: 40), source: "junk.jpg")
            Issue.record("junk bytes fingerprinted")
        } catch {
            #expect(error.description.contains("junk.jpg"))
        }
        do {
            _ = try query.fingerprint(file: "/nonexistent/photo.png")
            Issue.record("a missing file fingerprinted")
        } catch {
            #expect(error.description.contains("/nonexistent/photo.png"))
        }
    }

    /// The streamed working planes of an unresampled RGBA image (a DCT-scaled JPEG: the fast
    /// rows of `glimpse_working_planes_push_row`) hold the same luma bits and colour bins on
    /// every instruction set, over 1,070,080 distinct 24-bit colours spread across the cube
    /// (pixel index × 40503 mod 2^24, a bijection; all 2^24 colours were checked exhaustively
    /// when the AVX paths were written), with a width that leaves a padded tail
    /// (1045 = 32·32 + 16 + 5: the AVX-512 row's 32-pixel steps, then one AVX2 16-pixel step,
    /// then 5 pixels).
    @Test(.comparingEveryInstructionSet) func streamedUnresampledPlanesAreIdenticalOnEveryPathOverTheColourCube() {
        let width = 1024 + 21, height = 1024
        var pixels = [UInt8](repeating: 0, count: width * 4)
        func planes(_ isa: InstructionSet) -> WorkingPlanes {
            var builder = WorkingPlanes.Builder(workingSize: width, using: isa)
            builder.begin(width: width, height: height, format: .rgba8)
            for y in 0..<height {
                for x in 0..<width {
                    let colour = UInt32(truncatingIfNeeded: (y * width + x) &* 40503) & 0xFF_FFFF
                    pixels[4 * x] = UInt8(truncatingIfNeeded: colour)
                    pixels[4 * x + 1] = UInt8(truncatingIfNeeded: colour >> 8)
                    pixels[4 * x + 2] = UInt8(truncatingIfNeeded: colour >> 16)
                    pixels[4 * x + 3] = UInt8(truncatingIfNeeded: x)
                }
                pixels.withUnsafeBufferPointer { builder.consume(row: $0, y: y) }
            }
            return builder.planes()
        }
        let portable = planes(.portable)
        for isa in supportedInstructionSets where isa != .portable {
            let fast = planes(isa)
            #expect(bitIdentical(fast.luma.samples, portable.luma.samples), "\(isa) luma")
            #expect(fast.bins == portable.bins, "\(isa) bins")
        }
    }
}
