import Catalog
import Fingerprints
import Foundation
import InstructionSetTesting
import PixelBuffers
import SyntheticData
import Testing
@testable import Search

/// The plane-layout, many-queries-per-pass scan gives exactly the answers of a plain scan
/// (one query view at a time over interleaved PDQ words, first pair seen wins ties; full-frame
/// query views against every catalog view, the others against catalog full frames), on
/// random and real fingerprints, on every instruction set.
@Suite struct VisualIndexScanEquivalenceTests {
    static let version = CatalogVersion(catalogID: "equivalence", generation: 3, tokenKey: SIMD2(5, 6))

    /// The search written out plainly from the entries, one query view at a time.
    static func referenceSearch(_ entries: [FingerprintSnapshot.Entry], _ query: Fingerprint, scoring: SimilarityScoring,
                                minimumScore: Double, minimumViewQuality: Int) -> [LandmarkMatch] {
        let sorted = entries.enumerated().sorted { ($0.element.landmarkID, $0.offset) < ($1.element.landmarkID, $1.offset) }.map(\.element)
        var views: [(owner: Int, view: FingerprintView)] = []
        var ids: [String] = []
        for entry in sorted {
            for fingerprint in entry.fingerprints {
                for view in fingerprint.views where view.quality >= minimumViewQuality {
                    if ids.last != entry.landmarkID { ids.append(entry.landmarkID) }
                    views.append((ids.count - 1, view))
                }
            }
        }
        var words: [UInt64] = [], fullWords: [UInt64] = [], fullViews: [Int] = []
        for (i, v) in views.enumerated() {
            v.view.pdq.appendWords(to: &words)
            if v.view.region == .full { v.view.pdq.appendWords(to: &fullWords); fullViews.append(i) }
        }
        var best: [Int: LandmarkMatch] = [:]
        let informative = query.views.indices.filter { query.views[$0].quality >= minimumViewQuality }
        for q in informative {
            let qv = query.views[q]
            // Every full-frame query view (the full frame in each orientation) against every
            // catalog view; the other query views against full frames only.
            let fullOnly = qv.region != .full
            let codes = fullOnly ? fullWords : words
            codes.withUnsafeBufferPointer { buffer in
                HammingScan.forEachMatch(of: qv.pdq, in: buffer, maxDistance: max(0, min(256, scoring.candidatePDQRadius)), using: .portable) { i, d in
                    let index = fullOnly ? fullViews[i] : i
                    let cv = views[index].view
                    let ph = (qv.pHash ^ cv.pHash).nonzeroBitCount, dh = (qv.dHash ^ cv.dHash).nonzeroBitCount
                    let h = qv.histogram.distance(to: cv.histogram)
                    let score = scoring.score(pdq: d, pHash: ph, dHash: dh, histogram: h)
                    guard score >= minimumScore else { return }
                    let owner = views[index].owner
                    if let current = best[owner], current.score >= score { return }
                    best[owner] = LandmarkMatch(landmarkID: ids[owner], score: score, pdqDistance: d, pHashDistance: ph, dHashDistance: dh,
                                                histogramDistance: h, queryViewIndex: q, catalogRegion: cv.region)
                }
            }
        }
        return best.sorted { ($0.value.score, $1.key) > ($1.value.score, $0.key) }.map(\.value)
    }

    /// Synthetic landmarks (31 related views each) plus, for ties, exact duplicates under other ids.
    static func syntheticEntries(count: Int, seed: UInt64) -> [FingerprintSnapshot.Entry] {
        var generator = SeededGenerator(seed: seed)
        let regions = FingerprintViewLayout.catalog.viewRegions
        var entries = (0..<count).map { i in
            FingerprintSnapshot.Entry(landmarkID: "s\(i)", fingerprints: [SyntheticCatalog.fingerprint(regions: regions, using: &generator)])
        }
        entries.append(.init(landmarkID: "dup-b", fingerprints: entries[7].fingerprints + entries[7].fingerprints))
        entries.append(.init(landmarkID: "dup-a", fingerprints: entries[7].fingerprints))
        return entries
    }

    /// Queries near catalog entries: one view replaced by a perturbed catalog view (full frame or a crop).
    static func queries(near entries: [FingerprintSnapshot.Entry], count: Int, seed: UInt64) -> [Fingerprint] {
        var generator = SeededGenerator(seed: seed)
        let regions = FingerprintViewLayout.query.viewRegions
        return (0..<count).map { k in
            var query = SyntheticCatalog.fingerprint(regions: regions, using: &generator)
            let target = entries[Int(generator.next() % UInt64(entries.count))].fingerprints[0]
            let slot = k % query.views.count
            var view = target.views[Int(generator.next() % UInt64(target.views.count))]
            view.region = query.views[slot].region
            for _ in 0..<Int(generator.next() % 40) { view.pdq.words[Int(generator.next() % 4)] ^= 1 << (generator.next() % 64) }
            query.views[slot] = view
            if k % 5 == 4 { query.views[0].quality = 0 } // a blank view is skipped
            return query
        }
    }

    static func expectSame(_ index: VisualIndex, _ entries: [FingerprintSnapshot.Entry], _ queries: [Fingerprint],
                           scorings: [(SimilarityScoring, Double)]) throws {
        for (scoring, minimumScore) in scorings {
            for (k, query) in queries.enumerated() {
                let expected = referenceSearch(entries, query, scoring: scoring, minimumScore: minimumScore, minimumViewQuality: index.minimumViewQuality)
                for isa in InstructionSet.allCases where isa.isSupported {
                    let got = try index.search(query, scoring: scoring, minimumScore: minimumScore, using: isa).matches
                    #expect(got == expected, "query \(k) on \(isa), radius \(scoring.candidatePDQRadius), min \(minimumScore)")
                }
            }
        }
    }

    @Test(.comparingEveryInstructionSet) func randomCatalogGivesTheSameMatchesAsTheOneQueryAtATimeScan() throws {
        let entries = Self.syntheticEntries(count: 300, seed: 42)
        let index = VisualIndex(version: Self.version, entries: entries)
        #expect(index.viewCount == entries.reduce(0) { $0 + $1.fingerprints.count * 31 })
        try Self.expectSame(index, entries, Self.queries(near: entries, count: 15, seed: 7), scorings: [
            (.default, SimilarityScoring.defaultNoMatchThreshold), (.default, 0),
            (SimilarityScoring(candidatePDQRadius: 256), 0), (SimilarityScoring(candidatePDQRadius: 70), 0.2),
        ])
    }

    @Test(.comparingEveryInstructionSet) func realPhotosGiveTheSameMatchesAsTheOneQueryAtATimeScan() throws {
        let folder = SearchFixtures.root.deletingLastPathComponent().appendingPathComponent("catalog")
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }.sorted().prefix(8)
        let fingerprinter = Fingerprinter()
        var entries = Self.syntheticEntries(count: 300, seed: 9)
        var queries: [Fingerprint] = []
        for file in files {
            let pixels = try ImageDecoder().decode(file: folder.appendingPathComponent(file).path, options: DecodeOptions(minimumShortSide: 512)).pixels
            entries.append(.init(landmarkID: file, fingerprints: [fingerprinter.fingerprint(of: pixels)]))
            queries.append(fingerprinter.queryFingerprint(of: pixels))
        }
        let index = VisualIndex(version: Self.version, entries: entries)
        try Self.expectSame(index, entries, queries, scorings: [(.default, SimilarityScoring.defaultNoMatchThreshold), (.default, 0)])
    }

    @Test(.comparingEveryInstructionSet) func planeScanFindsExactlyTheCodesWithinTheRadiusOnEveryPath() {
        var generator = SeededGenerator(seed: 11)
        let count = 1_003
        let codes = (0..<count).map { _ in PDQHash(words: SIMD4(generator.next(), generator.next(), generator.next(), generator.next())) }
        var planes = [UInt64](repeating: 0, count: 4 * count)
        for (i, code) in codes.enumerated() { for w in 0..<4 { planes[w * count + i] = code.words[w] } }
        // 70 queries (more than one kernel pass): near copies of catalog codes and random ones.
        let queries = (0..<70).map { k -> PDQHash in
            var q = k % 2 == 0 ? codes[(k * 37) % count] : PDQHash(words: SIMD4(generator.next(), generator.next(), generator.next(), generator.next()))
            for _ in 0..<(k % 50) { q.words[Int(generator.next() % 4)] ^= 1 << (generator.next() % 64) }
            return q
        }
        for radius in [0, 40, 104, 256] {
            var expected: [[Int]] = []
            for (i, code) in codes.enumerated() {
                for (j, q) in queries.enumerated() {
                    let d = (0..<4).reduce(0) { $0 + (q.words[$1] ^ code.words[$1]).nonzeroBitCount }
                    if d <= radius { expected.append([i, j, d]) }
                }
            }
            for isa in InstructionSet.allCases where isa.isSupported {
                var got: [[Int]] = []
                planes.withUnsafeBufferPointer { p in
                    HammingScan.forEachPlaneMatch(of: queries, planes: p, stride: count, count: count, maxDistance: radius, using: isa) { got.append([$0, $1, $2]) }
                }
                // Hits come code-major within a pass of up to 64 queries; compare as sets of (code, query, distance).
                #expect(Set(got) == Set(expected) && got.count == expected.count, "radius \(radius) on \(isa)")
            }
        }
    }

    @Test(.comparingEveryInstructionSet) func checksumIsTheSameOnEveryPathAndSeesDamage() {
        var generator = SeededGenerator(seed: 3)
        var bytes = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        // Whole 1 KiB stripes, a block or a byte either side, and lengths where the vector
        // paths ask for the stripe 4 KiB ahead (they may sum a stripe in any order).
        for length in [0, 1, 63, 64, 65, 1023, 1024, 1025, 4999, 5120, 5121, 16_383, 16_384, 16_447, 69_999, 70_000] {
            let sums = InstructionSet.allCases.filter(\.isSupported).map { isa in
                bytes.withUnsafeBytes { Checksum64.of(UnsafeRawBufferPointer(rebasing: $0[0..<length]), using: isa) }
            }
            #expect(Set(sums).count == 1, "length \(length)")
        }
        // The value is part of the snapshot format (its header and block checksums): fixed.
        #expect(bytes.withUnsafeBytes { Checksum64.of($0, using: .portable) } == 4_484_621_771_452_639_035)
        let before = bytes.withUnsafeBytes { Checksum64.of($0) }
        bytes[2_500] ^= 0x10
        #expect(bytes.withUnsafeBytes { Checksum64.of($0) } != before)
        bytes[2_500] ^= 0x10
        bytes.swapAt(100, 2_000)
        #expect(bytes.withUnsafeBytes { Checksum64.of($0) } != before)
    }
}
