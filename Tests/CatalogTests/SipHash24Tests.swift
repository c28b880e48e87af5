import Catalog
import Foundation
import Testing

/// SipHash-2-4 against the paper's vectors, the two-key pass against two single passes, and
/// the content hash against the value stored catalogs hold.
struct SipHash24Tests {
    /// The key of the SipHash paper's vectors, bytes 00 01 … 0f.
    let paperKey = SIMD2<UInt64>(0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908)

    @Test func sipHashMatchesTheReferenceVector() {
        // SipHash-2-4 paper, key 00 01 … 0f: empty message and 15-byte message 00…0e.
        let hasher = SipHash24(key: paperKey)
        #expect(hasher.hash([UInt8]()) == 0x726f_db47_dd0e_0e31)
        #expect(hasher.hash((0..<15).map { UInt8($0) }) == 0xa129_ca61_49be_45e5)
    }

    @Test func theTwoKeyPassGivesWhatTwoSinglePassesGiveAtEveryLength() {
        let other = SIMD2<UInt64>(0x1234_5678_9abc_def0, 0x0fed_cba9_8765_4321)
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
        for count in Array(0...40) + [63, 64, 65, 999, 1_000] {
            let prefix = Array(bytes.prefix(count))
            let pair = prefix.withUnsafeBytes { SipHash24.hashes($0, first: paperKey, second: other) }
            #expect(pair.0 == SipHash24(key: paperKey).hash(prefix), "first key, \(count) bytes")
            #expect(pair.1 == SipHash24(key: other).hash(prefix), "second key, \(count) bytes")
        }
        let vector = (0..<15).map { UInt8($0) }
        #expect(vector.withUnsafeBytes { SipHash24.hashes($0, first: paperKey, second: other) }.0 == 0xa129_ca61_49be_45e5)
    }

    @Test func theContentHashIsTheValueStoredCatalogsHold() {
        // Computed by two separate SipHash-2-4 passes (the hash's definition before the
        // one-pass form): a catalog indexed earlier must see its files as unchanged.
        #expect(ContentHash(of: Data("Glimpse content hash, 2026".utf8)).hex == "94c14317b2dd4d9d5669ea0ccea66c06")
        #expect(ContentHash(of: Data()).hex.count == 32)
    }
}
