import SyntheticData
import Testing
@testable import PixelBuffers

/// Damaged, truncated, empty and foreign files: a typed error naming the file, never a
/// crash, exit or print.
@Suite struct DamagedInputTests {
    static func decodeError(_ path: String, _ options: DecodeOptions = DecodeOptions()) -> DecodeError? {
        do {
            _ = try ImageDecoder().decode(file: path, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: TestData.jpegRows.filter { !$0.isOK })
    func everyDamagedJpegThrowsATypedError(_ row: TestData.Row) throws {
        let path = TestData.jpegPath(row.file)
        let error = try #require(Self.decodeError(path))
        #expect(error.source == path)
        #expect(error.description.hasPrefix(path + ": "))
        switch (row.file, error) {
        case ("corrupt_empty.jpg", .emptyFile),
             ("corrupt_not_a_jpeg.jpg", .unrecognisedFormat),
             ("corrupt_truncated_baseline.jpg", .truncated(_, .jpeg, _)),
             ("corrupt_truncated_progressive.jpg", .truncated(_, .jpeg, _)),
             ("corrupt_bitflips.jpg", .corruptData(_, .jpeg, _)),
             ("corrupt_bad_marker.jpg", .corruptData(_, .jpeg, _)),
             ("monkey12.jpg", .unsupported(_, .jpeg, _)):
            break
        default:
            Issue.record("\(row.file): unexpected \(error)")
        }
    }

    @Test func truncatedJpegDecodesWhenDamageIsAllowed() throws {
        let path = TestData.path("jpeg/corrupt_truncated_baseline.jpg")
        let image = try ImageDecoder().decode(file: path, options: DecodeOptions(allowDamaged: true))
        #expect(image.pixels.width == 600 && image.pixels.height == 400)
        #expect(image.damage == "Premature end of JPEG file")
    }

    @Test func truncatedPngThrowsTruncated() throws {
        let bytes = try TestData.readFile(TestData.path("pngsuite/basn2c08.png"))
        for length in [20, 40, bytes.count / 2, bytes.count - 13] {
            do {
                _ = try ImageDecoder().decode(Array(bytes.prefix(length)), source: "cut.png")
                Issue.record("\(length) bytes decoded")
            } catch {
                guard case .truncated(let source, .png, _) = error else {
                    Issue.record("\(length) bytes: unexpected \(error)")
                    continue
                }
                #expect(source == "cut.png")
            }
        }
    }

    @Test func truncatedPngKeepsItsFirstRowsWhenDamageIsAllowed() throws {
        let bytes = try TestData.readFile(TestData.path("pngsuite/basn2c08.png"))
        let full = try ImageDecoder().decode(bytes)
        // Cut inside IEND: every row is there, only the end is missing.
        let cut = try ImageDecoder().decode(Array(bytes.prefix(bytes.count - 6)), options: DecodeOptions(allowDamaged: true))
        #expect(cut.damage == "the file ends before the image does")
        #expect(cut.pixels == full.pixels)
        // Cut before any row could be inflated: nothing to salvage, still an error.
        #expect(throws: DecodeError.self) {
            try ImageDecoder().decode(Array(bytes.prefix(bytes.count / 2)), options: DecodeOptions(allowDamaged: true))
        }
    }

    @Test func missingFileAndDirectoryAreUnreadable() throws {
        let missing = TestData.path("no-such-file.png")
        #expect(throws: DecodeError.unreadableFile(source: missing, reason: "No such file or directory")) {
            try ImageDecoder().decode(file: missing)
        }
        #expect(throws: DecodeError.unreadableFile(source: "/dev/null", reason: "is a device, not a regular file")) {
            try ImageDecoder().decode(file: "/dev/null")
        }
        let directory = TestData.path("jpeg")
        #expect(throws: DecodeError.unreadableFile(source: directory, reason: "is a directory")) {
            try ImageDecoder().decode(file: directory)
        }
    }

    @Test func formatComesFromTheBytesNotTheExtension() throws {
        let jpegBytes = try TestData.readFile(TestData.path("jpeg/testorig.jpg"))
        let image = try ImageDecoder().decode(jpegBytes, source: "looks-like.png")
        #expect(image.info.format == .jpeg)
        #expect(ImageFormat.detect(jpegBytes) == .jpeg)
        #expect(ImageFormat.detect(try TestData.readFile(TestData.path("pngsuite/basn2c08.png"))) == .png)
        #expect(ImageFormat.detect([0x47, 0x49, 0x46]) == nil)
        #expect(throws: DecodeError.unrecognisedFormat(source: "x.jpg", detail: "not PNG, JPEG, WebP, HEIF or AVIF: starts with 0x47 0x49")) {
            try ImageDecoder().decode(Array("GIF89a".utf8), source: "x.jpg")
        }
    }

    /// Damaged and cut copies of a JPEG and a PNG: each either decodes to a plausible image
    /// or fails with a typed error naming its source, the same way twice (no crash, no
    /// state carried from one decode to the next).
    @Test func randomGarbageAfterAValidSignatureDecodesOrFailsTheSameWayTwice() throws {
        var generator = SeededGenerator(seed: 42)
        let seeds = [try TestData.readFile(TestData.path("jpeg/testorig.jpg")),
                     try TestData.readFile(TestData.path("pngsuite/basn6a08.png"))]
        var failures = 0, decoded = 0
        for seed in seeds {
            for _ in 0..<100 {
                var bytes = seed
                for _ in 0..<8 {
                    let i = Int(generator.next() % UInt64(bytes.count - 4)) + 4
                    bytes[i] = UInt8(truncatingIfNeeded: generator.next())
                }
                let cut = Array(bytes.prefix(Int(generator.next() % UInt64(bytes.count)) + 1))
                func attempt() -> Result<DecodedImage, DecodeError> {
                    Result { () throws(DecodeError) -> DecodedImage in try ImageDecoder().decode(cut, source: "garbage") }
                }
                switch (attempt(), attempt()) {
                case (.success(let a), .success(let b)):
                    decoded += 1
                    #expect(a.pixels == b.pixels)
                    #expect(a.pixels.width > 0 && a.pixels.height > 0 && a.pixels.width * a.pixels.height <= DecodeOptions().maxPixels)
                case (.failure(let a), .failure(let b)):
                    failures += 1
                    #expect(a == b)
                    #expect(a.source == "garbage" && a.description.hasPrefix("garbage: "), "\(a)")
                default:
                    Issue.record("the same \(cut.count) bytes decoded once and failed once")
                }
            }
        }
        #expect(failures + decoded == 200)
        #expect(failures > 100, "most cut copies end before their image: \(failures) failed, \(decoded) decoded")
    }
}
