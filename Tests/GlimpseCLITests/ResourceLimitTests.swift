import Foundation
import GlimpseProcessTesting
import Testing

/// Decompression bombs are refused, or decoded within bounds of time and memory. Each
/// case runs `glimpse inspect` on a hostile file in a child process and reads the child's
/// own peak RSS from `wait4`, through the PeakRSS helper (see ``ChildProcess``). Bounds are generous enough for AddressSanitizer builds and a
/// loaded machine; without the limits each case takes seconds to minutes or gigabytes.
/// Set GLIMPSE_PRINT_LIMITS=1 to print each child's time and peak RSS.
@Suite(.serialized) struct ResourceLimitTests {
    /// Peak RSS allowed above what `glimpse inspect` needs for a 1×1 image.
    static let memoryHeadroom = 96 << 20
    /// Wall time allowed for a refusal.
    static let refusalSeconds = 5.0

    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-bombs-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Peak RSS of `glimpse inspect` on a tiny valid image: the runtime's own footprint.
    static let baselineBytes: Int = {
        let path = scratch.appendingPathComponent("baseline.png").path
        let png = DecompressionBombs.pngSignature + DecompressionBombs.ihdr(width: 1, height: 1)
            + DecompressionBombs.chunk("IDAT", DecompressionBombs.zlibZeros(2)) + DecompressionBombs.chunk("IEND", [])
        _ = FileManager.default.createFile(atPath: path, contents: Data(png))
        return (try? ChildProcess.run(GlimpseExecutable.pathOrPlaceholder, ["inspect", path], measuringMemory: true).maxResidentBytes) ?? 0
    }()

    /// Writes `bytes` and runs `glimpse inspect` on them.
    func inspect(_ name: String, _ bytes: [UInt8]) throws -> ChildRun {
        try #require(GlimpseExecutable.path != nil, "build the glimpse executable first (swift build)")
        let path = Self.scratch.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ChildProcess.run(GlimpseExecutable.pathOrPlaceholder, ["inspect", path], measuringMemory: true)
    }

    func expectRefused(_ run: ChildRun, mentioning reason: String, seconds: Double = refusalSeconds,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.exitStatus == 1, "\(run)", sourceLocation: sourceLocation)
        #expect(run.standardError.contains(reason), "\(run)", sourceLocation: sourceLocation)
        expectBounded(run, seconds: seconds, sourceLocation: sourceLocation)
    }

    func expectBounded(_ run: ChildRun, seconds: Double = refusalSeconds, extraBytes: Int = 0,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        if ProcessInfo.processInfo.environment["GLIMPSE_PRINT_LIMITS"] != nil {
            print("resource-limit \(sourceLocation.line): \(run)")
        }
        #expect(run.seconds < seconds, "\(run)", sourceLocation: sourceLocation)
        #expect(Self.baselineBytes > 0)
        #expect(run.maxResidentBytes < Self.baselineBytes + Self.memoryHeadroom + extraBytes,
                "baseline \(Self.baselineBytes >> 20) MB; \(run)", sourceLocation: sourceLocation)
    }

    // MARK: Declared sizes

    @Test func pngDeclaring100000x100000IsRefusedFromItsHeader() throws {
        let run = try inspect("huge.png", DecompressionBombs.pngHeaderOnly(width: 100_000, height: 100_000))
        expectRefused(run, mentioning: "image too large: declared 100000x100000", seconds: 2)
    }

    @Test func jpegDeclaring65500x65500IsRefusedFromItsHeader() throws {
        let run = try inspect("huge.jpg", DecompressionBombs.jpegHeaderOnly(width: 65_500, height: 65_500))
        expectRefused(run, mentioning: "image too large: declared 65500x65500", seconds: 2)
    }

    /// 49 megapixels under the cap, as one row or one column (48 KB and 95 KB files): a
    /// streamed decode holds rows of floats of the source's width, so the 49,000,000×1 one
    /// took 1.2 GB before images thinner than 1:100 were refused from their header.
    @Test func pngsThinnerThanOneToAHundredAreRefusedFromTheirHeader() throws {
        for (width, height) in [(49_000_000, 1), (1, 49_000_000), (20_100, 200)] {
            let rows = height * (1 + width)   // a filter byte per row, grey pixels of zero
            let png = DecompressionBombs.pngSignature + DecompressionBombs.ihdr(width: UInt32(width), height: UInt32(height))
                + DecompressionBombs.chunk("IDAT", DecompressionBombs.zlibZeros(rows)) + DecompressionBombs.chunk("IEND", [])
            let run = try inspect("thin-\(width)x\(height).png", png)
            expectRefused(run, mentioning: "image too thin: declared \(width)x\(height)", seconds: 2)
        }
    }

    /// 144 megapixels (under the 150 MP cap) declared by a 100-byte file: the output buffer
    /// is reserved but never touched, and decoding stops where the data does.
    @Test func pngDeclaring12000x12000WithoutTheDataFailsFastWithoutTouchingTheBuffer() throws {
        let run = try inspect("tall.png", DecompressionBombs.pngHugeDeclaredTruncated(width: 12_000, height: 12_000))
        expectRefused(run, mentioning: "truncated")
    }

    @Test func progressiveJpegDeclaring12000x12000WithoutTheDataFailsFast() throws {
        let run = try inspect("tall.jpg", DecompressionBombs.jpegProgressive(width: 12_000, height: 12_000, truncateAfter: 5000))
        expectRefused(run, mentioning: "truncated")
    }

    // MARK: zlib bombs

    /// 1 MB of IDAT inflating to 1 GiB after the only row: libpng would inflate all of it
    /// to check there is none (28 s here); now at most one row plus 16 KiB is read.
    @Test func pngWithAGigabyteOfExtraImageDataIsRefused() throws {
        let run = try inspect("extra.png", DecompressionBombs.pngTooMuchImageData())
        expectRefused(run, mentioning: "too much compressed image data")
    }

    /// 2 GB of zTXt once inflated, and an iCCP profile of 100 MB: skipped unread.
    @Test func compressedTextAndProfileChunksAreSkippedUnread() throws {
        let text = try inspect("ztxt.png", DecompressionBombs.pngCompressedTextBomb())
        #expect(text.exitStatus == 0, "\(text)")
        expectBounded(text)
        let profile = try inspect("iccp.png", DecompressionBombs.pngICCProfileBomb())
        #expect(profile.exitStatus == 0, "\(profile)")
        expectBounded(profile)
    }

    /// Found by fuzzing: a zTXt header declaring 2 GB made libpng allocate and zero 2 GB.
    @Test func chunkDeclaringTwoGigabytesIsNotAllocated() throws {
        let run = try inspect("ztxt-2gb.png", DecompressionBombs.pngTextDeclaringTwoGigabytes())
        expectRefused(run, mentioning: "truncated")
    }

    // MARK: Chunk and marker floods

    @Test func pngWithTwoHundredThousandChunksDecodesInBoundedTimeAndMemory() throws {
        let run = try inspect("chunks.png", DecompressionBombs.pngThousandsOfChunks(100_000))
        #expect(run.exitStatus == 0, "\(run)")
        expectBounded(run)
        let idat = try inspect("idat.png", DecompressionBombs.pngThousandsOfIDATChunks(100_000))
        #expect(idat.exitStatus == 0, "\(idat)")
        expectBounded(idat)
    }

    /// 200 000 APP1/COM markers (3.5 MB): libjpeg keeps the APP1 ones (EXIF is APP1), so
    /// memory grows with the file, not more.
    @Test func jpegWithTwoHundredThousandMarkersDecodesInBoundedTimeAndMemory() throws {
        let small = DecompressionBombs.jpegProgressive(width: 64, height: 64, bands: 1...5, refinements: 0)
        let bytes = DecompressionBombs.jpegThousandsOfMarkers(small, count: 100_000)
        let run = try inspect("markers.jpg", bytes)
        #expect(run.exitStatus == 0, "\(run)")
        expectBounded(run, extraBytes: 4 * bytes.count)
    }

    // MARK: Scan floods

    /// 883 valid progressive scans over 16.7 megapixels in 64 KB: each scan walks every
    /// block (10 s here before the limit); refused once scans × pixels passes 10⁹.
    @Test func progressiveJpegWithHundredsOfScansIsRefused() throws {
        let bytes = DecompressionBombs.jpegProgressive(width: 4096, height: 4096)
        #expect(bytes.count < 80_000)
        let run = try inspect("scans.jpg", bytes)
        // The whole-image coefficient buffer (2 bytes per pixel) is legitimately in use.
        #expect(run.exitStatus == 1 && run.standardError.contains("scans for 4096x4096 pixels"), "\(run)")
        expectBounded(run, seconds: 8, extraBytes: 2 * 4096 * 4096)
    }

    @Test func aFewScansOfTheSameSizeAreStillDecoded() throws {
        let run = try inspect("ten-scans.jpg", DecompressionBombs.jpegProgressive(width: 1024, height: 1024, bands: 1...9, refinements: 0))
        #expect(run.exitStatus == 0, "\(run)")
        #expect(run.standardOutput.contains("1024"), "\(run)")
    }
}
