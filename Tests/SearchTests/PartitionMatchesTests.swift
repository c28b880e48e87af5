import Catalog
import Fingerprints
import Foundation
import GoldenFiles
import Testing
@testable import Search

/// Merging partitions' answers gives the list one index over the whole catalog gives, and
/// the internal wire formats (request and answer) are the committed golden files.
@Suite struct PartitionMatchesTests {
    static func match(_ id: String, _ score: Double) -> LandmarkMatch {
        LandmarkMatch(landmarkID: id, score: score, pdqDistance: 10, pHashDistance: 4, dHashDistance: 5, histogramDistance: 30,
                      queryViewIndex: 2, catalogRegion: ViewRegion(x: 0.25, y: 0, width: 0.5, height: 1))
    }

    /// A catalog's matches split into `parts` by landmark, each part cut to `limit`.
    static func split(_ matches: [LandmarkMatch], parts: Int, limit: Int) -> [PartitionMatches] {
        (0..<parts).map { k in
            let mine = matches.enumerated().filter { $0.offset % parts == k }.map(\.element).sorted(by: PartitionMatches.precedes)
            return PartitionMatches(matches: Array(mine.prefix(limit)), collectionsByLandmark: Dictionary(uniqueKeysWithValues: mine.map { ($0.landmarkID, ["c-\($0.landmarkID)"]) }),
                                    isPartial: false, generations: ["\(k)/\(parts)": 7])
        }
    }

    @Test func mergingEveryPartitionsTopKIsTheWholeCatalogsTopKWithTiesById() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<50 {
            // Scores on a coarse grid: many ties, broken by id.
            let whole = (0..<200).map { Self.match(String(format: "landmark-%03d", ($0 * 37 + round) % 200), Double(Int.random(in: 40...60, using: &generator)) / 100) }
            let limit = [1, 5, 50, 1000][round % 4]
            let expected = Array(whole.sorted(by: PartitionMatches.precedes).prefix(limit))
            for parts in [1, 2, 3, 7] {
                let merged = PartitionMatches.merging(Self.split(whole, parts: parts, limit: limit), limit: limit)
                #expect(merged.matches == expected, "\(parts) partitions, limit \(limit)")
                #expect(!merged.isPartial && merged.missingPartitions.isEmpty && merged.generations.count == parts)
                #expect(merged.matches.allSatisfy { merged.collectionsByLandmark[$0.landmarkID] == ["c-\($0.landmarkID)"] })
            }
        }
    }

    @Test func aMissingPartitionMakesTheMergePartialAndIsNamedOnce() throws {
        let answered = PartitionMatches(matches: [Self.match("a", 0.9)], collectionsByLandmark: [:], isPartial: false, generations: ["0/3": 4])
        let missing = { (k: Int) throws in
            PartitionMatches(matches: [], collectionsByLandmark: [:], isPartial: true, missingPartitions: [try CatalogPartition(index: k, count: 3)])
        }
        let merged = PartitionMatches.merging([try missing(2), answered, try missing(1), try missing(2)], limit: 10)
        #expect(merged.isPartial && merged.missingPartitions.map(\.description) == ["1/3", "2/3"])
        #expect(merged.matches.map(\.landmarkID) == ["a"])
        // A landmark answered twice (a repartition seen half-way) is kept once, at its best.
        let twice = PartitionMatches.merging([answered, PartitionMatches(matches: [Self.match("a", 0.5)], collectionsByLandmark: [:], isPartial: false)], limit: 10)
        #expect(twice.matches.map(\.score) == [0.9])
    }

    @Test func aPartitionsCandidatesMergedWithItsScanOfEveryViewAreTheScansAnswer() throws {
        // Partition 0/2 answered from its candidates (one match, sure of nothing), 1/2 in full.
        let candidates = PartitionMatches(matches: [Self.match("b", 0.42)], collectionsByLandmark: [:], isPartial: false,
                                          generations: ["0/2": 3], scanMicroseconds: ["0/2": 100], firstStageBest: ["0/2": 0.42])
        let full = PartitionMatches(matches: [Self.match("z", 0.41)], collectionsByLandmark: [:], isPartial: false,
                                    generations: ["1/2": 3], scanMicroseconds: ["1/2": 900])
        let first = PartitionMatches.merging([candidates, full], limit: 10)
        #expect(first.firstStageBest == ["0/2": 0.42], "only the partition that answered from candidates is unsure")
        // Then 0/2's scan of every view: a candidate's score is its exact score, so the
        // merge is the scan's answer, and no partition is left on its candidates.
        let scan = PartitionMatches(matches: [Self.match("a", 0.44), Self.match("b", 0.42)], collectionsByLandmark: [:], isPartial: false,
                                    generations: ["0/2": 3], scanMicroseconds: ["0/2": 2000])
        let merged = PartitionMatches.merging([first, scan], limit: 10)
        #expect(merged.matches.map(\.landmarkID) == ["a", "b", "z"] && merged.firstStageBest.isEmpty)
        #expect(merged.scanMicroseconds == ["0/2": 2100, "1/2": 900], "a partition's time is its two requests'")
    }

    @Test func anOlderReplicasRequestAndAnswerWithoutTheFirstStageFieldsReadAsComplete() throws {
        let request = try WireJSON.decode(PartitionMatchRequest.self, from: Array(
            #"{"partition":"1/4","profile":0,"fingerprint":"AA==","minimum_score":0.4,"limit":10,"membership_of":[],"deadline_ms":100}"#.utf8))
        #expect(request.firstStage == nil)
        // A round of the cascade across partitions names itself; absent otherwise (the golden file).
        var round = request
        round.firstStage = .firstLook
        #expect(WireJSON.line(round).contains(#""first_stage":"first_look""#))
        #expect(try WireJSON.decode(PartitionMatchRequest.self, from: WireJSON.bytes(round)).firstStage == .firstLook)
        let answer = try WireJSON.decode(PartitionMatches.self, from: Array(
            #"{"matches":[],"collections_by_landmark":{},"partial":false,"missing_partitions":[],"generations":{"1/4":2},"scan_us":{"1/4":5}}"#.utf8))
        #expect(answer.firstStageBest.isEmpty && answer.generations == ["1/4": 2])
    }

    @Test func theInternalRequestAndAnswerAreTheGoldenFiles() throws {
        let fingerprint = Fingerprint(views: [FingerprintView(region: .full, aHash: 1, dHash: 2, pHash: 3, pdq: .zero, quality: 90, histogram: .empty)])
        let request = PartitionMatchRequest(partition: try CatalogPartition(index: 1, count: 4), profile: 2, fingerprint: fingerprint, minimumScore: 0.4,
                                            limit: 1000, membershipOf: ["landmarks/hurricane-ridge"], deadlineMilliseconds: 480)
        try GoldenFile("partition-request.json").check(WireJSON.line(request))
        let decoded = try WireJSON.decode(PartitionMatchRequest.self, from: WireJSON.bytes(request))
        #expect(decoded == request && decoded.decodedFingerprint == fingerprint)

        let answer = PartitionMatches(matches: [Self.match("landmarks/hurricane-ridge", 0.662_448_123_456_789)],
                                      collectionsByLandmark: ["landmarks/hurricane-ridge": ["landmarks"]], isPartial: false, generations: ["1/4": 12],
                                      scanMicroseconds: ["1/4": 1830])
        try GoldenFile("partition-answer.json").check(WireJSON.line(answer))
        #expect(try WireJSON.decode(PartitionMatches.self, from: WireJSON.bytes(answer)) == answer, "scores round-trip exactly")
        // Not a partition, or a fingerprint that is not one: refused, never guessed.
        #expect(throws: DecodingError.self) { try WireJSON.decode(PartitionMatchRequest.self, from: Array(#"{"partition":"4/4"}"#.utf8)) }
        var bad = request
        bad.fingerprint = "not base64!"
        #expect(bad.decodedFingerprint == nil)
    }
}
