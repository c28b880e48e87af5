import SyntheticData
import Testing
import Fingerprints

@Suite struct FingerprintSerializationTests {
    static func sampleFingerprint(views: Int, layoutVersion: UInt16 = 7) -> Fingerprint {
        var rng = SeededGenerator(seed: 11)
        return Fingerprint(views: (0..<views).map { i in
            FingerprintView(
                region: i == 0 ? .full : ViewRegion(x: 0.125, y: 0.25, width: 0.5, height: 0.75),
                aHash: rng.next(), dHash: rng.next(), pHash: rng.next(),
                pdq: PDQHash(words: SIMD4(rng.next(), rng.next(), rng.next(), rng.next())),
                quality: i * 10 % 101,
                histogram: ColorHistogram(bins: (0..<64).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        }, layoutVersion: layoutVersion)
    }

    @Test(arguments: [0, 1, 9])
    func serializedFingerprintReadsBackEqual(views: Int) throws {
        let fp = Self.sampleFingerprint(views: views)
        let bytes = fp.serialized()
        #expect(bytes.count == 5 + 137 * views)
        #expect(bytes[0] == Fingerprint.serializationVersion)
        #expect(try Fingerprint(serialized: bytes) == fp)
        #expect(try Fingerprint.layoutVersion(ofSerialized: bytes) == 7)
    }

    @Test func formatOneFingerprintsReadBackAsLayoutVersionOne() throws {
        // Format 1 (catalogs written before layout versions): version byte 1, UInt16 view count, views.
        let fp = Self.sampleFingerprint(views: 2, layoutVersion: 1)
        let v2 = fp.serialized()
        let v1 = [UInt8(1)] + v2[3...]
        #expect(try Fingerprint(serialized: v1) == fp)
        #expect(try Fingerprint.layoutVersion(ofSerialized: v1) == 1)
        #expect(throws: FingerprintFormatError.truncated(needed: 3, got: 2)) { try Fingerprint(serialized: v1.prefix(2)) }
    }

    @Test func fingerprintsCarryTheirLayoutsVersion() {
        let pixels = syntheticPhoto(width: 64, height: 48, seed: 5)
        #expect(Fingerprinter().fingerprint(of: pixels).layoutVersion == FingerprintViewLayout.catalogVersion)
        #expect(Fingerprinter().fingerprint(of: pixels, layout: .fullFrame).layoutVersion == FingerprintViewLayout.unversioned)
        #expect(FingerprintViewLayout.catalogVersion > 0)
    }

    @Test func truncatedBytesAreRejected() {
        let bytes = Self.sampleFingerprint(views: 2).serialized()
        #expect(throws: FingerprintFormatError.truncated(needed: 279, got: 278)) { try Fingerprint(serialized: bytes.dropLast()) }
        #expect(throws: FingerprintFormatError.truncated(needed: 3, got: 0)) { try Fingerprint(serialized: [UInt8]()) }
        #expect(throws: FingerprintFormatError.truncated(needed: 5, got: 4)) { try Fingerprint(serialized: bytes.prefix(4)) }
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
        bytes[5 + 72] = 101
        #expect(throws: FingerprintFormatError.invalidQuality(index: 0, value: 101)) { try Fingerprint(serialized: bytes) }
        bytes = Self.sampleFingerprint(views: 1).serialized()
        bytes[5 + 8] = 0xFF; bytes[5 + 9] = 0xFF; bytes[5 + 10] = 0xFF; bytes[5 + 11] = 0x7F   // width = NaN
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
