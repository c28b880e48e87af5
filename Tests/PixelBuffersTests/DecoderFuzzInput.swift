import PixelBuffers

/// One input of the decoder fuzzer (`scripts/fuzz.sh decoder`): 8 option bytes, then the
/// image bytes. Shared by the libFuzzer entry point (fuzz/DecoderFuzzer.swift, which
/// compiles this file too) and ``FuzzRegressionTests``, so a saved crash replays exactly.
///
/// Option bytes: `[flags, a, b, c, d, minimumSide, cap, unused]`. Flags: 0x01 allow damage,
/// 0x02 always RGBA, 0x04 keep the stored orientation, 0x08 decode a region, 0x10 the
/// region is raw pixels `(a*16, b*16) (c*8)x(d*8)` as signed bytes (may lie outside),
/// 0x20 the region is fractions; otherwise it is pixels derived from a..d as fractions of
/// the image size. `minimumSide` non-zero picks a DCT scale. `cap & 3` picks maxPixels.
struct DecoderFuzzInput {
    /// Bytes of options before the image.
    static let headerSize = 8

    let flags: UInt8
    let a: UInt8, b: UInt8, c: UInt8, d: UInt8
    let minimumSide: UInt8
    let capChoice: UInt8
    /// The image bytes after the header.
    let image: [UInt8]

    /// Splits `bytes`; `nil` when shorter than the header.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= Self.headerSize else { return nil }
        flags = bytes[0]
        a = bytes[1]; b = bytes[2]; c = bytes[3]; d = bytes[4]
        minimumSide = bytes[5]
        capChoice = bytes[6]
        image = Array(bytes[Self.headerSize...])
    }

    var allowDamaged: Bool { flags & 0x01 != 0 }
    var alwaysRGBA: Bool { flags & 0x02 != 0 }
    var keepStoredOrientation: Bool { flags & 0x04 != 0 }
    var hasRegion: Bool { flags & 0x08 != 0 }
    var rawPixelRegion: Bool { flags & 0x10 != 0 }
    var fractionRegion: Bool { flags & 0x20 != 0 }

    /// Small caps keep each run fast; bombs at the default cap are covered by ResourceLimitTests.
    var maxPixels: Int { [1 << 20, 1 << 22, 1 << 16, 1 << 12][Int(capChoice & 3)] }

    /// Decode options for an image whose size (in the orientation the region is given in) is `width`×`height`.
    func options(width: Int, height: Int) -> DecodeOptions {
        var options = DecodeOptions(
            applyOrientation: !keepStoredOrientation, maxPixels: maxPixels,
            allowDamaged: allowDamaged, alwaysRGBA: alwaysRGBA)
        if minimumSide != 0 { options.minimumShortSide = Int(minimumSide) }
        guard hasRegion else { return options }
        if rawPixelRegion {
            options.region = .pixels(PixelRect(x: Int(Int8(bitPattern: a)) * 16, y: Int(Int8(bitPattern: b)) * 16,
                                               width: Int(Int8(bitPattern: c)) * 8, height: Int(Int8(bitPattern: d)) * 8))
        } else if fractionRegion {
            let x = Double(a) / 256, y = Double(b) / 256
            options.region = .fractions(x: x, y: y, width: (1 - x) * Double(c) / 255, height: (1 - y) * Double(d) / 255)
        } else {
            let x = width * Int(a) / 256, y = height * Int(b) / 256
            let w = max(1, (width - x) * Int(c) / 255), h = max(1, (height - y) * Int(d) / 255)
            options.region = .pixels(PixelRect(x: x, y: y, width: w, height: h))
        }
        return options
    }

    /// Probes and decodes the image. Returns `nil` when the decoder behaved (pixels that
    /// satisfy the documented invariants, or a typed error naming the source), otherwise
    /// what went wrong. A memory error or crash in the codec crashes the caller instead.
    func run() -> String? {
        let decoder = ImageDecoder()
        guard let info = try? decoder.info(of: image, source: "fuzz") else {
            // The probe refused: the decoder must refuse too.
            if let decoded = try? decoder.decode(image, source: "fuzz", options: DecodeOptions(maxPixels: 1 << 20)) {
                return "decode succeeded where info failed: \(decoded.info)"
            }
            return nil
        }
        let upright = info.orientation.orientedSize(width: info.storedWidth, height: info.storedHeight)
        let (width, height) = keepStoredOrientation ? (info.storedWidth, info.storedHeight) : upright
        let options = options(width: width, height: height)
        do {
            let decoded = try decoder.decode(image, source: "fuzz", options: options)
            let pixels = decoded.pixels
            guard pixels.width > 0, pixels.height > 0 else { return "empty pixel buffer from a successful decode" }
            guard pixels.bytesPerRow >= pixels.width * pixels.format.bytesPerPixel else { return "rows shorter than the width" }
            if decoded.scale == .full, pixels.width != decoded.region.width || pixels.height != decoded.region.height {
                return "full-scale decode of \(decoded.region) gave \(pixels.width)x\(pixels.height)"
            }
            if decoded.damage != nil && !options.allowDamaged { return "damage reported without allowDamaged" }
            // Read every byte (a short buffer shows up under AddressSanitizer), and check the
            // row-streaming decode delivers the same rows.
            var rowHashes: [UInt64] = []
            for y in 0..<pixels.height { pixels.withRow(y) { rowHashes.append(Self.hash($0)) } }
            var sink = HashingRowSink()
            do {
                let rows = try decoder.decodeRows(image, source: "fuzz", options: options, into: &sink)
                if rows.width != pixels.width || rows.height != pixels.height || rows.format != pixels.format
                    || sink.width != rows.width || sink.height != rows.height {
                    return "decodeRows gave \(rows.width)x\(rows.height) \(rows.format), decode \(pixels.width)x\(pixels.height) \(pixels.format)"
                }
                if sink.hashes != rowHashes {
                    // libde265 1.0.11 reads memory it never wrote on some damaged HEVC slices it
                    // does not report (testdata/fuzz-regressions/known-issues): the same bytes
                    // then decode differently from time to time. A HEIF's rows are never
                    // streamed: decodeRows runs the very same decode, so a difference there is
                    // that codec's, and is tolerated for HEIF only.
                    if decoded.info.format == .heif && !rows.streamed { return nil }
                    return "decodeRows (streamed: \(rows.streamed)) delivered other pixels than decode"
                }
            } catch {
                return "decodeRows failed where decode succeeded: \(error)"
            }
        } catch {
            if error.source != "fuzz" || error.description.isEmpty { return "error without its source: \(error)" }
            var sink = HashingRowSink()
            if let rows = try? decoder.decodeRows(image, source: "fuzz", options: options, into: &sink) {
                return "decodeRows (streamed: \(rows.streamed)) succeeded where decode failed with \(error)"
            }
        }
        return nil
    }

    /// FNV-1a of a row.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return h
    }
}

/// Records what ``ImageDecoder/decodeRows(_:source:options:into:)`` delivers, as row hashes.
struct HashingRowSink: DecodedRowSink {
    var width = 0, height = 0
    var hashes: [UInt64] = []

    mutating func begin(width: Int, height: Int, format: PixelFormat) {
        self.width = width
        self.height = height
    }

    mutating func consume(row: UnsafeBufferPointer<UInt8>, y: Int) {
        precondition(y == hashes.count && (row.count == width * 4 || row.count == width), "row \(y) out of order or short")
        hashes.append(DecoderFuzzInput.hash(row))
    }
}
