/// Hostile images built in memory for ResourceLimitTests: small files that declare or
/// inflate to far more than they contain. Built at test time so testdata stays small.
enum DecompressionBombs {
    // MARK: zlib

    /// LSB-first bit packing, as deflate stores header fields; Huffman codes are written
    /// most significant bit first through ``code(_:length:)``.
    struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var count: UInt32 = 0

        mutating func bits(_ value: UInt32, _ length: UInt32) {
            for i in 0..<length { bit((value >> i) & 1) }
        }

        mutating func code(_ value: UInt32, length: UInt32) {
            for i in stride(from: Int(length) - 1, through: 0, by: -1) { bit((value >> UInt32(i)) & 1) }
        }

        mutating func bit(_ b: UInt32) {
            accumulator |= b << count
            count += 1
            if count == 8 { bytes.append(UInt8(accumulator)); accumulator = 0; count = 0 }
        }

        mutating func finish() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(accumulator)) }
            accumulator = 0; count = 0
            return bytes
        }
    }

    /// A zlib stream inflating to `count` zero bytes, about `count / 1032` bytes long: one
    /// dynamic-Huffman block whose only codes are literal 0 (2 bits), end of block (2 bits)
    /// and "copy 258 bytes from distance 1" (1 + 1 bits).
    static func zlibZeros(_ count: Int) -> [UInt8] {
        precondition(count >= 1)
        var w = BitWriter()
        w.bits(1, 1)          // BFINAL
        w.bits(2, 2)          // BTYPE = dynamic Huffman
        w.bits(29, 5)         // HLIT: 286 literal/length codes
        w.bits(0, 5)          // HDIST: 1 distance code
        w.bits(14, 4)         // HCLEN: 18 code-length codes
        // Code-length code lengths in RFC 1951 order 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1:
        // symbol 18 gets 1 bit, symbols 1 and 2 get 2 bits.
        for length: UInt32 in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] { w.bits(length, 3) }
        // Canonical code-length codes: 18 -> 0, 1 -> 10, 2 -> 11.
        func zeros(_ n: UInt32) { w.code(0, length: 1); w.bits(n - 11, 7) } // symbol 18: n zeros, 11...138
        w.code(0b11, length: 2)                 // literal 0: length 2
        zeros(138); zeros(117)                  // literals 1...255 unused
        w.code(0b11, length: 2)                 // 256 (end of block): length 2
        zeros(28)                               // lengths 257...284 unused
        w.code(0b10, length: 2)                 // 285 (length 258): length 1
        w.code(0b10, length: 2)                 // distance code 0 (distance 1): length 1
        // Canonical literal/length codes: 285 -> 0, literal 0 -> 10, 256 -> 11; distance 0 -> 0.
        w.code(0b10, length: 2)                 // one literal zero
        var left = count - 1
        // Each copy is the two bits "00": once byte-aligned, four copies are a zero byte.
        while left >= 258 && w.count != 0 { w.code(0, length: 1); w.code(0, length: 1); left -= 258 }
        let copies = left / 258
        w.bytes += [UInt8](repeating: 0, count: copies / 4)
        left -= copies / 4 * 4 * 258
        while left >= 258 { w.code(0, length: 1); w.code(0, length: 1); left -= 258 }
        while left > 0 { w.code(0b10, length: 2); left -= 1 }
        w.code(0b11, length: 2)                 // end of block
        let adler = UInt32(count % 65521) << 16 | 1
        return [0x78, 0x9C] + w.finish() + bigEndian(adler)
    }

    // MARK: PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A chunk with a correct CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// IHDR for an 8-bit image (colour type 0 gray, 2 RGB, 6 RGBA).
    static func ihdr(width: UInt32, height: UInt32, colorType: UInt8 = 0) -> [UInt8] {
        chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, colorType, 0, 0, 0])
    }

    /// A 1×1 gray PNG whose IDAT inflates to 1 GiB: the pixel, then a gigabyte of data the
    /// image has no room for. About 1 MB.
    static func pngTooMuchImageData() -> [UInt8] {
        pngSignature + ihdr(width: 1, height: 1) + chunk("IDAT", zlibZeros(1 << 30)) + chunk("IEND", [])
    }

    /// A 1×1 PNG preceded by 20 zTXt chunks of 100 MiB each once inflated (about 2 MB).
    static func pngCompressedTextBomb() -> [UInt8] {
        let text = chunk("zTXt", Array("Comment".utf8) + [0, 0] + zlibZeros(100 << 20))
        return pngSignature + ihdr(width: 1, height: 1) + Array([[UInt8]](repeating: text, count: 20).joined())
            + chunk("IDAT", zlibZeros(2)) + chunk("IEND", [])
    }

    /// A 1×1 PNG preceded by an iCCP profile inflating to 100 MiB.
    static func pngICCProfileBomb() -> [UInt8] {
        pngSignature + ihdr(width: 1, height: 1) + chunk("iCCP", Array("icc".utf8) + [0, 0] + zlibZeros(100 << 20))
            + chunk("IDAT", zlibZeros(2)) + chunk("IEND", [])
    }

    /// A 1×1 PNG preceded by `count` tEXt chunks and `count` unknown ancillary chunks.
    static func pngThousandsOfChunks(_ count: Int) -> [UInt8] {
        var bytes = pngSignature + ihdr(width: 1, height: 1)
        for i in 0..<count {
            bytes += chunk("tEXt", Array("Key\(i % 10)".utf8) + [0] + Array("value \(i)".utf8))
            bytes += chunk("quIt", [UInt8](repeating: UInt8(i & 0xFF), count: 10))
        }
        return bytes + chunk("IDAT", zlibZeros(2)) + chunk("IEND", [])
    }

    /// A 1×1 PNG whose IDAT is split into `count` chunks (the first holds the stream, the
    /// others are empty).
    static func pngThousandsOfIDATChunks(_ count: Int) -> [UInt8] {
        var bytes = pngSignature + ihdr(width: 1, height: 1) + chunk("IDAT", zlibZeros(2))
        for _ in 1..<count { bytes += chunk("IDAT", []) }
        return bytes + chunk("IEND", [])
    }

    /// A gray PNG declaring `width`×`height` whose data stops after the first few rows.
    static func pngHugeDeclaredTruncated(width: UInt32, height: UInt32) -> [UInt8] {
        let stream = zlibZeros(Int(width + 1) * 4)
        return pngSignature + ihdr(width: width, height: height) + chunk("IDAT", Array(stream.dropLast(4)))
    }

    /// The PNG the decoder fuzzer found: a zTXt chunk header declaring about 2 GB, then EOF.
    static func pngTextDeclaringTwoGigabytes() -> [UInt8] {
        pngSignature + ihdr(width: 32, height: 32) + bigEndian(0x789C_0080) + Array("zTXt".utf8) + [0xFF, 0x4D]
    }

    /// Signature and IHDR only, declaring `width`×`height` RGB.
    static func pngHeaderOnly(width: UInt32, height: UInt32) -> [UInt8] {
        pngSignature + ihdr(width: width, height: height, colorType: 2)
    }

    // MARK: JPEG

    /// Byte-stuffed entropy-coded data (0xFF is followed by 0x00), padded with 1 bits.
    struct EntropyWriter {
        var bytes: [UInt8] = []
        var accumulator: UInt32 = 0
        var count: UInt32 = 0

        mutating func put(_ value: UInt32, _ length: UInt32) {
            for i in stride(from: Int(length) - 1, through: 0, by: -1) {
                accumulator = accumulator << 1 | (value >> UInt32(i)) & 1
                count += 1
                if count == 8 {
                    bytes.append(UInt8(accumulator))
                    if accumulator == 0xFF { bytes.append(0) }
                    accumulator = 0; count = 0
                }
            }
        }

        mutating func finish() -> [UInt8] {
            while count != 0 { put(1, 1) }
            return bytes
        }
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A gray progressive JPEG of `width`×`height` (all blocks flat) with a DC scan and,
    /// for each AC coefficient in `bands`, a first scan at `refinements` bits of successive
    /// approximation followed by one refinement scan per bit: a valid progression of
    /// `1 + bands.count × (refinements + 1)` scans. AC scans cost two bytes per 32767
    /// blocks (end-of-band runs), so hundreds of scans over megapixels fit in kilobytes.
    /// `truncateAfter` keeps only that many bytes (the file then ends inside the DC scan).
    static func jpegProgressive(width: Int, height: Int, bands: ClosedRange<Int> = 1...63, refinements: Int = 13,
                                truncateAfter: Int? = nil) -> [UInt8] {
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        out += segment(0xC2, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        out += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]) // DC: category 0 -> "0"
        out += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0xE0]) // AC: EOB14 -> "0"
        out += segment(0xDA, [1, 1, 0x00, 0, 0, 0])
        out += [UInt8](repeating: 0, count: blocks / 8) + (blocks % 8 != 0 ? [0x7F] : [])
        if let truncateAfter { return Array(out.prefix(truncateAfter)) }
        func acScan(_ k: Int, _ ah: Int, _ al: Int) -> [UInt8] {
            var w = EntropyWriter()
            var left = blocks
            while left > 0 { w.put(0, 1); w.put(0x3FFF, 14); left -= 32767 } // EOB run of 32767
            return segment(0xDA, [1, 1, 0x00, UInt8(k), UInt8(k), UInt8(ah << 4 | al)]) + w.finish()
        }
        for k in bands {
            out += acScan(k, 0, refinements)
            for al in stride(from: refinements - 1, through: 0, by: -1) { out += acScan(k, al + 1, al) }
        }
        return out + [0xFF, 0xD9]
    }

    /// A baseline JPEG header declaring `width`×`height`, a few entropy bytes, EOI.
    static func jpegHeaderOnly(width: UInt16, height: UInt16) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 17, 8]
        bytes += [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3]
        bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xDA, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]
        return bytes + [0x12, 0x34, 0x56, 0xFF, 0xD9]
    }

    /// `valid` (a small JPEG) with `count` APP1 and COM markers inserted after SOI.
    static func jpegThousandsOfMarkers(_ valid: [UInt8], count: Int) -> [UInt8] {
        var markers: [UInt8] = []
        markers.reserveCapacity(count * 40)
        for i in 0..<count {
            markers += segment(0xE1, Array("XMP\(i)".utf8) + [UInt8](repeating: 0x20, count: 8))
            markers += segment(0xFE, Array("comment \(i)".utf8))
        }
        return Array(valid.prefix(2)) + markers + Array(valid.dropFirst(2))
    }
}
