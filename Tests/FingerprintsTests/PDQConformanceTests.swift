import Foundation
import InstructionSetTesting
import PixelBuffers
import Testing
import Fingerprints

/// Conformance with Meta's PDQ: `testdata/pdq/reference.tsv` holds the hashes the
/// reference C++ (via the `pdqhash` package, `scripts/pdq-reference.py`) computes from
/// the same decoded pixels.
@Suite struct PDQConformanceTests {
    struct Reference {
        var path: String
        var width: Int
        var height: Int
        var quality: Int
        var hashes: [PDQHash]   // original, then the dihedral variants in PDQ's order
    }

    static func references() throws -> [Reference] {
        let tsv = try String(contentsOf: testdataURL.appendingPathComponent("pdq/reference.tsv"), encoding: .utf8)
        return try tsv.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t").map(String.init)
            try #require(f.count == 12)
            return Reference(path: f[0], width: try #require(Int(f[1])), height: try #require(Int(f[2])),
                             quality: try #require(Int(f[3])), hashes: try f[4...].map { try #require(PDQHash(hex: $0)) })
        }
    }

    static let pdqOrder: [Dihedral] = [.original, .rotate90, .rotate180, .rotate270, .flipX, .flipY, .flipPlus1, .flipMinus1]

    @Test func referenceCoversTheTestImages() throws {
        let refs = try Self.references()
        #expect(refs.count >= 70)
        #expect(refs.filter { $0.quality >= 80 }.count >= 70)
    }

    @Test func hashesAreWithinTenBitsOfTheReferenceForQualityAtLeast80() throws {
        var exact = 0, total = 0
        for ref in try Self.references() {
            let decoded = try ImageDecoder().decode(file: testdataURL.appendingPathComponent(ref.path).path)
            #expect(decoded.pixels.width == ref.width && decoded.pixels.height == ref.height, "\(ref.path)")
            let result = PDQHasher().hash(decoded.pixels)
            #expect(abs(result.quality - ref.quality) <= 2, "\(ref.path): quality \(result.quality) vs \(ref.quality)")
            guard ref.quality >= 80 else { continue }
            total += 1
            for (transform, expected) in zip(Self.pdqOrder, ref.hashes) {
                let d = result.hash(for: transform).distance(to: expected)
                #expect(d <= 10, "\(ref.path) \(transform): \(d) bits from the reference")
                if transform == .original && d == 0 { exact += 1 }
            }
        }
        // Same decoder, same float operations: nearly every hash is bit-exact.
        #expect(exact * 10 >= total * 9, "\(exact) of \(total) bit-exact")
    }

    @Test(.comparingEveryInstructionSet) func portableAndFastPathsGiveTheSameHashesOnRealPhotos() throws {
        for ref in try Self.references().prefix(12) {
            let pixels = try ImageDecoder().decode(file: testdataURL.appendingPathComponent(ref.path).path).pixels
            let portable = PDQHasher(using: .portable).hash(pixels)
            let portableFingerprint = Fingerprinter(using: .portable).fingerprint(of: pixels)
            for isa in supportedInstructionSets {
                #expect(PDQHasher(using: isa).hash(pixels) == portable, "\(ref.path) \(isa)")
                #expect(Fingerprinter(using: isa).fingerprint(of: pixels) == portableFingerprint, "\(ref.path) \(isa)")
            }
        }
    }

    @Test func fullFrameViewEqualsReferenceWhenTheImageFitsTheWorkingSize() throws {
        for ref in try Self.references() where ref.quality >= 80 && max(ref.width, ref.height) <= 512 {
            let pixels = try ImageDecoder().decode(file: testdataURL.appendingPathComponent(ref.path).path).pixels
            let view = try #require(Fingerprinter(layout: .fullFrame).fingerprint(of: pixels).full)
            #expect(view.pdq.distance(to: ref.hashes[0]) <= 10, "\(ref.path)")
        }
    }
}
