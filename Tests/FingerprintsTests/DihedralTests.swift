import Foundation
import PixelBuffers
import Testing
@testable import Fingerprints

/// Every view of a query can be derived in the eight orientations from its own transforms:
/// the derived codes must be those of the actually transformed picture.
@Suite struct DihedralTests {
    func photo(_ path: String) throws -> PixelBuffer {
        try ImageDecoder().decode(file: testdataURL.appendingPathComponent(path).path).pixels
    }

    /// At a side of 64 PDQ's filter and decimation are exactly symmetric, so the pixel
    /// mapping (``Dihedral/sourceCell(row:column:rows:columns:)``) and the DCT mapping
    /// (``Dihedral/transformDCT(_:side:)``) must agree bit for bit: same conventions.
    @Test(arguments: Dihedral.allCases)
    func pixelAndDCTMappingsAgree(transform: Dihedral) {
        let square = syntheticPhoto(width: 64, height: 64, seed: 21)
        let hasher = PDQHasher(using: .portable)
        let derived = hasher.hash(square).hash(for: transform)
        let direct = hasher.hash(transformed(square, by: transform)).hash
        #expect(derived.distance(to: direct) <= 2, "\(transform): \(derived.distance(to: direct)) bits")
    }

    @Test func rotationsComposeAsTheGroupDoes() {
        let cell = (row: 2, column: 5)
        // A 90° counter-clockwise rotation of a 4×7 grid is 7×4; four of them are the identity.
        var rows = 4, columns = 7, at = cell
        var path: [(Int, Int)] = []
        for _ in 0..<4 {
            // Find the transformed cell showing `at`.
            var found = (0, 0)
            for r in 0..<columns { for c in 0..<rows where Dihedral.rotate90.sourceCell(row: r, column: c, rows: rows, columns: columns) == at { found = (r, c) } }
            path.append(found)
            at = (row: found.0, column: found.1)
            swap(&rows, &columns)
        }
        #expect(at == cell, "\(path)")
        #expect(Dihedral.rotate90.transform(ViewRegion(x: 0, y: 0, width: 0.5, height: 0.25)) == ViewRegion(x: 0, y: 0.5, width: 0.25, height: 0.5))
    }

    /// On real photos of any shape, each derived oriented view is within a few bits of the
    /// view of the transformed photo (PDQ's box filter and decimation are symmetric only at
    /// a side of 64: about 14–24 bits of 256; PDQ's match threshold is 31).
    @Test(arguments: ["catalog/landmarks/hurricane-ridge.jpg", "catalog/food/cherries.jpg"])
    func derivedOrientedViewsMatchTheTransformedPhoto(path: String) throws {
        let original = try photo(path)
        let query = Fingerprinter().fingerprint(of: original, layout: .query(orientations: .all))
        let upright = try #require(query.full)
        for (k, transform) in Dihedral.allCases.enumerated() where transform != .original {
            let derived = query.views[k]
            let direct = try #require(Fingerprinter(layout: .fullFrame).fingerprint(of: transformed(original, by: transform)).full)
            #expect(derived.pdq.distance(to: direct.pdq) <= 28, "\(transform) PDQ \(derived.pdq.distance(to: direct.pdq))")
            #expect((derived.pHash ^ direct.pHash).nonzeroBitCount <= 6, "\(transform) pHash")
            #expect((derived.dHash ^ direct.dHash).nonzeroBitCount <= 6, "\(transform) dHash")
            #expect((derived.aHash ^ direct.aHash).nonzeroBitCount <= 4, "\(transform) aHash")
            #expect(derived.histogram == upright.histogram && derived.quality == upright.quality)
            #expect(upright.pdq.distance(to: direct.pdq) > 40, "\(transform) must differ from upright")
        }
    }
}
