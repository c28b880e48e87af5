import Testing
@testable import PixelBuffers

/// WebP, HEIF and AVIF against the reference tools' decodes of the same files (made by
/// scripts/make-format-testdata.sh; see testdata/webp, testdata/heif, testdata/avif).
///
/// Exactness: dwebp and heif-convert run the same libwebp / libheif code paths Glimpse
/// calls, so their pixels must match byte for byte. avifdec converts YCbCr to RGB with
/// libavif's own code (libyuv), libheif with its own, so AVIF is compared with a stated
/// tolerance: ±2 per channel at 8 bits, ±3 from 10/12-bit sources (each converter rounds
/// the 10/12 → 8-bit reduction its own way).
@Suite struct FormatConformanceTests {
    static let decoder = ImageDecoder()

    static func decode(_ file: String, _ options: DecodeOptions = DecodeOptions()) throws -> DecodedImage {
        try decoder.decode(file: TestData.path(file), options: options)
    }

    /// Largest per-channel difference and the mean absolute difference of two RGBA buffers of one size.
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (max: Int, mean: Double)? {
        guard a.width == b.width, a.height == b.height, a.format == b.format else { return nil }
        let x = a.packedBytes(), y = b.packedBytes()
        var worst = 0, total = 0
        for i in 0..<x.count {
            let d = abs(Int(x[i]) - Int(y[i]))
            worst = max(worst, d)
            total += d
        }
        return (worst, Double(total) / Double(max(1, x.count)))
    }

    // MARK: Format detection

    @Test(arguments: [
        ("webp/lossy.webp", ImageFormat.webp), ("webp/animated.webp", .webp), ("heif/photo.heic", .heif),
        ("heif/two-images.heic", .heif), ("avif/photo.avif", .avif), ("avif/grid-2x2.avif", .avif),
    ])
    func formatComesFromTheBytes(_ file: String, _ format: ImageFormat) throws {
        let bytes = try TestData.readFile(TestData.path(file))
        #expect(ImageFormat.detect(bytes) == format)
        // Under a misleading name, the bytes still decide.
        let info = try Self.decoder.info(of: bytes, source: "photo.jpg")
        #expect(info.format == format)
    }

    // MARK: WebP

    @Test(arguments: ["lossy", "lossless", "alpha"])
    func webpMatchesDwebpExactly(_ name: String) throws {
        let ours = try Self.decode("webp/\(name).webp")
        let reference = try Self.decode("webp/\(name).dwebp.png")
        #expect(ours.pixels == reference.pixels, "\(name): \(String(describing: Self.difference(ours.pixels, reference.pixels)))")
        #expect(ours.info.format == .webp)
        #expect(ours.info.hasAlpha == (name == "alpha"))
    }

    @Test func animatedWebpDecodesItsFirstFrame() throws {
        let ours = try Self.decode("webp/animated.webp")
        #expect(ours.info.imageCount == 2)
        // The frames are lossless, so frame 1 is the source picture exactly.
        let frame1 = try Self.decode("webp/lossless.dwebp.png")
        #expect(ours.pixels == frame1.pixels)
    }

    @Test func webpExifOrientationIsApplied() throws {
        let turned = try Self.decode("webp/lossy-exif6.webp")
        let plain = try Self.decode("webp/lossy.webp")
        #expect(turned.info.orientation == .right)
        #expect(turned.pixels.width == 128 && turned.pixels.height == 256)
        #expect(turned.pixels == Self.rotateClockwise(plain.pixels))
    }

    static let regions = [
        PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 1, y: 1, width: 5, height: 7),
        PixelRect(x: 3, y: 5, width: 101, height: 33), PixelRect(x: 255, y: 0, width: 1, height: 128),
        PixelRect(x: 0, y: 127, width: 256, height: 1), PixelRect(x: 17, y: 16, width: 16, height: 16),
        PixelRect(x: 200, y: 90, width: 56, height: 38), PixelRect(x: 127, y: 63, width: 2, height: 2),
    ]

    @Test(arguments: ["webp/lossy.webp", "webp/lossless.webp", "webp/animated.webp", "webp/lossy-exif6.webp",
                      "heif/photo.heic", "heif/exif6.heic", "avif/photo.avif", "avif/grid-2x2.avif",
                      "avif/irot1-imir0.avif"])
    func regionEqualsCropOfFullDecode(_ file: String) throws {
        let full = try Self.decode(file)
        for rect in Self.regions {
            // Regions are given upright; turned images are 128 wide.
            guard rect.fits(width: full.pixels.width, height: full.pixels.height) else { continue }
            let part = try Self.decode(file, DecodeOptions(region: .pixels(rect)))
            #expect(part.pixels == (try full.pixels.region(rect)), "\(file) \(rect)")
            #expect(part.scale == .full)
        }
    }

    @Test func webpScalesInsideTheDecoder() throws {
        let full = try Self.decode("webp/lossy.webp")
        let small = try Self.decode("webp/lossy.webp", DecodeOptions(minimumShortSide: 30))
        #expect(small.scale == .oneQuarter)
        #expect(small.pixels.width == 64 && small.pixels.height == 32)
        // Same picture, smaller: compare with a 4x4 box average of the full decode.
        let reference = Self.boxDownscale(full.pixels, factor: 4)
        let diff = try #require(Self.difference(small.pixels, reference))
        #expect(diff.mean < 6, "mean difference \(diff.mean)")
        // A scaled region keeps its place: the right half at 1/2.
        let half = try Self.decode("webp/lossy.webp", DecodeOptions(
            region: .pixels(PixelRect(x: 128, y: 0, width: 128, height: 128)), minimumShortSide: 64))
        #expect(half.scale == .oneHalf)
        #expect(half.pixels.width == 64 && half.pixels.height == 64)
        let right = try Self.boxDownscale(full.pixels.region(PixelRect(x: 128, y: 0, width: 128, height: 128)), factor: 2)
        #expect(try #require(Self.difference(half.pixels, right)).mean < 6)
    }

    // MARK: HEIF

    @Test func heicMatchesHeifConvertExactly() throws {
        let ours = try Self.decode("heif/photo.heic")
        let reference = try Self.decode("heif/photo.heif-convert.png")
        #expect(ours.info.format == .heif && ours.info.bitDepth == 8 && !ours.info.isGrid)
        #expect(ours.pixels == reference.pixels, "\(String(describing: Self.difference(ours.pixels, reference.pixels)))")
    }

    @Test func tenBitHeicDecodesToEightBitsNearHeifConvert() throws {
        let ours = try Self.decode("heif/photo-10bit.heic")
        #expect(ours.info.bitDepth == 10)
        #expect(ours.pixels.format == .rgba8)
        // heif-convert writes 16-bit PNG for 10-bit input; our PNG path rounds it to 8 bits.
        let reference = try Self.decode("heif/photo-10bit.heif-convert.png")
        let diff = try #require(Self.difference(ours.pixels, reference.pixels))
        #expect(diff.max <= 3, "\(diff)")
    }

    @Test func multiImageHeifDecodesItsPrimaryImage() throws {
        let two = try Self.decode("heif/two-images.heic")
        let first = try Self.decode("heif/photo.heic")
        #expect(two.info.imageCount == 2)
        let diff = try #require(Self.difference(two.pixels, first.pixels))
        #expect(diff.mean < 1, "the primary (first) image, not the second: \(diff)")
    }

    @Test func heicExifOrientationWithoutIrotIsAppliedOnce() throws {
        // heif-enc 1.15 keeps the source's EXIF Orientation 6 and writes no irot.
        let turned = try Self.decode("heif/exif6.heic")
        let plain = try Self.decode("heif/photo.heic")
        #expect(turned.info.orientation == .right)
        #expect(turned.pixels == Self.rotateClockwise(plain.pixels))
        // Kept in stored orientation when asked.
        let stored = try Self.decode("heif/exif6.heic", DecodeOptions(applyOrientation: false))
        #expect(stored.pixels == plain.pixels)
    }

    // MARK: AVIF

    @Test(arguments: [("photo", 2), ("photo-444", 2), ("grid-2x2", 2), ("photo-10bit", 3), ("photo-12bit", 3)])
    func avifMatchesAvifdecWithinTolerance(_ name: String, _ tolerance: Int) throws {
        let ours = try Self.decode("avif/\(name).avif")
        let reference = try Self.decode("avif/\(name).avifdec.png")
        let diff = try #require(Self.difference(ours.pixels, reference.pixels))
        #expect(diff.max <= tolerance, "\(name): \(diff)")
        #expect(diff.mean < 0.5, "\(name): \(diff)")
        #expect(ours.info.format == .avif)
        #expect(ours.info.isGrid == (name == "grid-2x2"))
        #expect(ours.info.bitDepth == (name.hasSuffix("10bit") ? 10 : name.hasSuffix("12bit") ? 12 : 8))
    }

    /// irot a = a quarter turns anticlockwise, then imir mode 0 = top↔bottom, 1 = left↔right
    /// (ISO/IEC 23008-12 as amended; avifenc writes irot before imir). Expected pixels are
    /// computed here, independently of libheif and of ``ExifOrientation``.
    @Test(arguments: [0, 1, 2, 3])
    func avifIrotAndImirAreApplied(_ irot: Int) throws {
        let base = try Self.decode("avif/photo.avif").pixels
        var rotated = base
        for _ in 0..<irot { rotated = Self.rotateAnticlockwise(rotated) }
        for mirror in ["none", "0", "1"] {
            if irot == 0 && mirror == "none" { continue }
            let ours = try Self.decode("avif/irot\(irot)-imir\(mirror).avif")
            #expect(ours.info.orientation == .up, "irot/imir are libheif's; nothing left to apply")
            let expected = mirror == "none" ? rotated : Self.flip(rotated, topToBottom: mirror == "0")
            #expect(ours.pixels == expected, "irot\(irot) imir\(mirror): \(String(describing: Self.difference(ours.pixels, expected)))")
        }
    }

    @Test func avifWithIrotAndExifOrientationTurnsOnce() throws {
        let ours = try Self.decode("avif/irot3-exif6.avif")
        #expect(ours.info.orientation == .up)
        let base = try Self.decode("avif/photo.avif").pixels
        #expect(ours.pixels == Self.rotateClockwise(base))
    }

    // MARK: Damage

    @Test(arguments: ["webp/lossy.webp", "webp/lossless.webp", "webp/animated.webp", "heif/photo.heic",
                      "heif/two-images.heic", "avif/photo.avif", "avif/grid-2x2.avif", "avif/photo-10bit.avif"])
    func truncatedFilesGiveTypedErrorsNamingTheFile(_ file: String) throws {
        let bytes = try TestData.readFile(TestData.path(file))
        for keep in [12, 40, 100, bytes.count / 3, bytes.count / 2, bytes.count - 100, bytes.count - 1] where keep < bytes.count {
            let cut = Array(bytes[0..<keep])
            do {
                _ = try Self.decoder.decode(cut, source: "cut-\(keep)")
                Issue.record("\(file) cut to \(keep) bytes decoded")
            } catch {
                #expect(error.source == "cut-\(keep)")
                switch error {
                case .truncated, .corruptData: break
                default: Issue.record("\(file) cut to \(keep): \(error)")
                }
            }
        }
    }

    @Test func structuralDamageIsACorruptDataError() throws {
        var webp = try TestData.readFile(TestData.path("webp/lossy.webp"))
        webp[12..<16] = [0x56, 0x50, 0x38, 0x5A] // "VP8Z": no such chunk
        #expect(throws: DecodeError.self) { try Self.decoder.decode(webp, source: "bad.webp") }
        var heic = try TestData.readFile(TestData.path("heif/photo.heic"))
        if let meta = Self.find(Array("meta".utf8), in: heic) { heic[meta] = 0x6E } // "neta": no meta box
        do {
            _ = try Self.decoder.decode(heic, source: "bad.heic")
            Issue.record("a HEIF without meta decoded")
        } catch {
            guard case .corruptData(let source, let format, _) = error else { Issue.record("\(error)"); return }
            #expect(source == "bad.heic" && format == .heif)
        }
    }

    /// An overlay (iovl) or identity (iden) primary gets its canvas or source from data the
    /// declared-size checks do not read: refused as unsupported, before decoding.
    @Test func derivedPrimaryImagesOtherThanGridsAreRefused() throws {
        var heic = try TestData.readFile(TestData.path("heif/photo.heic"))
        let type = try #require(Self.find(Array("hvc1".utf8), in: heic))
        heic.replaceSubrange(type..<(type + 4), with: Array("iovl".utf8))
        do {
            _ = try Self.decoder.decode(heic, source: "overlay.heic")
            Issue.record("an overlay primary decoded")
        } catch {
            guard case .unsupported(let source, _, let reason) = error else { Issue.record("\(error)"); return }
            #expect(source == "overlay.heic" && reason.contains("'iovl'"), "\(reason)")
        }
    }

    // MARK: Helpers

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    /// Builds an RGBA buffer of `width`×`height` whose pixel (x, y) is `source` pixel `map(x, y)`.
    static func remap(_ source: PixelBuffer, width: Int, height: Int, _ map: (Int, Int) -> (Int, Int)) -> PixelBuffer {
        let bytes = source.packedBytes()
        var out = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (sx, sy) = map(x, y)
                for c in 0..<4 { out[(y * width + x) * 4 + c] = bytes[(sy * source.width + sx) * 4 + c] }
            }
        }
        return PixelBuffer(unchecked: .rgba8, width: width, height: height, bytesPerRow: width * 4, storage: out, origin: 0)
    }

    static func rotateClockwise(_ p: PixelBuffer) -> PixelBuffer {
        remap(p, width: p.height, height: p.width) { x, y in (y, p.height - 1 - x) }
    }

    static func rotateAnticlockwise(_ p: PixelBuffer) -> PixelBuffer {
        remap(p, width: p.height, height: p.width) { x, y in (p.width - 1 - y, x) }
    }

    static func flip(_ p: PixelBuffer, topToBottom: Bool) -> PixelBuffer {
        remap(p, width: p.width, height: p.height) { x, y in topToBottom ? (x, p.height - 1 - y) : (p.width - 1 - x, y) }
    }

    static func boxDownscale(_ p: PixelBuffer, factor: Int) -> PixelBuffer {
        let bytes = p.packedBytes()
        let w = p.width / factor, h = p.height / factor
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var sum = 0
                    for dy in 0..<factor { for dx in 0..<factor { sum += Int(bytes[((y * factor + dy) * p.width + x * factor + dx) * 4 + c]) } }
                    out[(y * w + x) * 4 + c] = UInt8(sum / (factor * factor))
                }
            }
        }
        return PixelBuffer(unchecked: .rgba8, width: w, height: h, bytesPerRow: w * 4, storage: out, origin: 0)
    }
}
