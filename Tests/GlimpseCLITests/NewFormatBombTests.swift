import Foundation
import Testing

/// Decompression bombs in the new formats, in the same child-process harness (time and
/// peak RSS) as the PNG and JPEG ones. The HEIF files come from scripts/make-heif-bombs.py
/// (real HEVC tiles behind hostile declarations); the WebP and AVIF ones are built here.
extension ResourceLimitTests {
    func bomb(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Glimpse.testdata("heif/bombs/" + name))))
    }

    // MARK: HEIF / AVIF

    @Test func heifDeclaring100000x100000IsRefusedFromItsBoxes() throws {
        let run = try inspect("huge.heic", bomb("ispe-100000.heic"))
        expectRefused(run, mentioning: "image too large: declared 100000x100000", seconds: 2)
    }

    /// ispe says 256x128; the grid descriptor, which libheif 1.15 allocates from, says 100000x100000.
    @Test func heifGridDeclaring100000x100000BehindASmallIspeIsRefused() throws {
        let run = try inspect("grid.heic", bomb("grid-100000.heic"))
        expectRefused(run, mentioning: "image too large: declared 100000x100000", seconds: 2)
    }

    @Test func heifGridOf900MegapixelsFromOneTileIsRefused() throws {
        let run = try inspect("grid900.heic", bomb("grid-30000-one-tile.heic"))
        expectRefused(run, mentioning: "image too large: declared 30000x30000", seconds: 2)
    }

    @Test func heifGridReferencingOneTile65025TimesIsRefused() throws {
        let run = try inspect("tiles.heic", bomb("grid-65025-tiles.heic"))
        expectRefused(run, mentioning: "image too large: declared 65280x32640", seconds: 2)
    }

    /// 33 MP, under the cap, but 8000 tile decodes (heif-convert: 7.7 s): refused before decoding.
    @Test func heifGridOf8000TinyTilesIsRefusedBeforeDecoding() throws {
        let run = try inspect("tiny-tiles.heic", bomb("grid-8000-small-tiles.heic"))
        expectRefused(run, mentioning: "grid of 8000 tiles: more than 2048 tiles is refused", seconds: 2)
    }

    /// One 256x128 tile for a 2048x2048 grid: libheif 1.15 would hand back uninitialised memory.
    @Test func heifGridWhoseTilesDoNotCoverItIsRefused() throws {
        let run = try inspect("uncovered.heic", bomb("grid-uncovered.heic"))
        expectRefused(run, mentioning: "the grid's 1 tiles cover 32768 of its 2048x2048 pixels", seconds: 2)
    }

    @Test func aValidGridOfTheSameTileDecodes() throws {
        let run = try inspect("ok.heic", bomb("grid-ok-2x2.heic"))
        #expect(run.exitStatus == 0, "\(run)")
        #expect(run.standardOutput.contains("decoded size:  512x256"))
        expectBounded(run)
    }

    @Test func avifDeclaring100000x100000IsRefused() throws {
        var avif = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Glimpse.testdata("avif/photo.avif"))))
        let ispe = try #require(Self.find(Array("ispe".utf8), in: avif))
        avif.replaceSubrange((ispe + 8)..<(ispe + 16), with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        let run = try inspect("huge.avif", avif)
        expectRefused(run, mentioning: "image too large: declared 100000x100000", seconds: 2)
    }

    // MARK: WebP

    @Test func webpDeclaring16384x16384IsRefusedFromItsHeader() throws {
        let run = try inspect("huge.webp", Self.webpLosslessHeader(width: 16384, height: 16384))
        expectRefused(run, mentioning: "image too large: declared 16384x16384", seconds: 2)
    }

    /// An animation's canvas may declare up to 2^32 pixels (libwebp's limit): refused from
    /// the VP8X chunk, before any frame is looked at.
    @Test func animatedWebpCanvasOf60000x60000IsRefused() throws {
        let run = try inspect("canvas.webp", Self.webpAnimatedCanvas(width: 60000, height: 60000))
        expectRefused(run, mentioning: "image too large: declared 60000x60000", seconds: 2)
    }

    /// 144 MP under the cap, declared by a 30-byte lossless header: fails where the data ends.
    @Test func webpDeclaring12000x12000WithoutTheDataFailsFast() throws {
        let run = try inspect("tall.webp", Self.webpLosslessHeader(width: 12000, height: 12000))
        #expect(run.exitStatus == 1, "\(run)")
        #expect(run.standardError.contains("WebP"), "\(run)")
        expectBounded(run)
    }

    // MARK: Builders

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }

    static func riff(_ chunks: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le32(UInt32(4 + chunks.count)) + Array("WEBP".utf8) + chunks
    }

    /// A lossless (VP8L) WebP whose header declares `width`×`height` and whose data stops there.
    static func webpLosslessHeader(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14
        let body: [UInt8] = [0x2F] + le32(bits) + [0, 0, 0]
        return riff(Array("VP8L".utf8) + le32(UInt32(body.count)) + body)
    }

    /// An animated (VP8X + ANIM) WebP declaring a `width`×`height` canvas, with no frame.
    static func webpAnimatedCanvas(width: Int, height: Int) -> [UInt8] {
        let w = UInt32(width - 1), h = UInt32(height - 1)
        let vp8x: [UInt8] = [0x02, 0, 0, 0, UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF),
                             UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF)]
        let anim: [UInt8] = Array("ANIM".utf8) + le32(6) + [0, 0, 0, 0, 0, 0]
        return riff(Array("VP8X".utf8) + le32(10) + vp8x + anim)
    }
}
