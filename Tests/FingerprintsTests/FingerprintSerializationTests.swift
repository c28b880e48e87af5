import Testing
import Fingerprints

@Suite struct FingerprintSerializationTests {
    static func sampleFingerprint(views: Int) -> Fingerprint {
        var rng = SplitMix64(seed: 11)
        return Fingerprint(views: (0..<views).map { i in
            FingerprintView(
                region: i == 0 ? .full : ViewRegion(x: 0.125, y: 0.25, width: 0.5, height: 0.75),
                aHash: rng.next(), dHash: rng.next(), pHash: rng.next(),
                pdq: PDQHash(words: SIMD4(rng.next(), rng.next(), rng.next(), rng.next())),
                quality: i * 10 % 101,
                histogram: ColorHistogram(bins: (0..<64).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        })
    }

    @Test(arguments: [0, 1, 9])
    func serializedFingerprintReadsBackEqual(views: Int) throws {
        let fp = Self.sampleFingerprint(views: views)
        let bytes = fp.serialized()
        #expect(bytes.count == 3 + 137 * views)
        #expect(bytes[0] == Fingerprint.serializationVersion)
        #expect(try Fingerprint(serialized: bytes) == fp)
    }

    @Test func truncatedBytesAreRejected() {
        let bytes = Self.sampleFingerprint(views: 2).serialized()
        #expect(throws: FingerprintFormatError.truncated(needed: 277, got: 276)) { try Fingerprint(serialized: bytes.dropLast()) }
        #expect(throws: FingerprintFormatError.truncated(needed: 3, got: 0)) { try Fingerprint(serialized: [UInt8]()) }
    }

    @Test func unknownVersionAndTrailingBytesAreRejected() {
        var bytes = Self.sampleFingerprint(views: 1).serialized()
        #expect(throws: FingerprintFormatError.trailingBytes(1)) { try Fingerprint(serialized: bytes + [0]) }
        bytes[0] = 99
        #expect(throws: FingerprintFormatError.unsupportedVersion(99)) { try Fingerprint(serialized: bytes) }
    }

    @Test func invalidRegionAndQualityAreRejected() {
        var bytes = Self.sampleFingerprint(views: 1).serialized()
        bytes[3 + 72] = 101
        #expect(throws: FingerprintFormatError.invalidQuality(index: 0, value: 101)) { try Fingerprint(serialized: bytes) }
        bytes = Self.sampleFingerprint(views: 1).serialized()
        bytes[3 + 8] = 0xFF; bytes[3 + 9] = 0xFF; bytes[3 + 10] = 0xFF; bytes[3 + 11] = 0x7F   // width = NaN
        #expect(throws: FingerprintFormatError.invalidRegion(index: 0)) { try Fingerprint(serialized: bytes) }
    }

    @Test func errorDescriptionsNameTheReason() {
        #expect(FingerprintFormatError.unsupportedVersion(7).description.contains("version 7"))
        #expect(FingerprintFormatError.truncated(needed: 10, got: 2).description.contains("truncated"))
    }
}

@Suite struct PDQHashTextTests {
    @Test func hexRoundTripsWithMostSignificantWordFirst() throws {
        let h = PDQHash(words: SIMD4(0x0000_0000_0000_0001, 2, 3, 0xF000_0000_0000_0000))
        #expect(h.hex == "f000000000000000" + "0000000000000003" + "0000000000000002" + "0000000000000001")
        #expect(PDQHash(hex: h.hex) == h)
        #expect(PDQHash(hex: h.hex.uppercased()) == h)
        #expect(PDQHash(hex: "xyz") == nil)
        #expect(PDQHash(hex: String(repeating: "g", count: 64)) == nil)
        #expect(h.bit(0) && h.bit(255) && h.bit(252) && !h.bit(251) && !h.bit(1))
    }
}
