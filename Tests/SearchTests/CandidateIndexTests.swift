import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import Testing
import SQLiteStore
import SyntheticData
import InstructionSetTesting
@testable import Search

/// The first stage (``CandidateIndex``) on the sample catalog's real photos: it only chooses
/// which landmarks are scored, every score it lets through is the exhaustive scan's, it is
/// the exhaustive scan when it may read everything, and its file is bound to its index.
@Suite(.serialized) struct CandidateIndexTests {
    static let catalogFolder = SearchFixtures.root.deletingLastPathComponent().appendingPathComponent("catalog")
    static let negativesFolder = SearchFixtures.root.deletingLastPathComponent().appendingPathComponent("negatives")

    /// The sample catalog indexed into a file catalog with its snapshot written, and queries:
    /// every negative photo and a third of each catalog photo (its left-hand side).
    static func sample() async throws -> (store: SQLiteEntityStore, index: VisualIndex, snapshot: String, queries: [Fingerprint]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-first-stage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try SQLiteEntityStore(path: folder.appendingPathComponent("catalog.sqlite").path)
        _ = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
            .index(ManifestCatalogSource(manifestPath: catalogFolder.appendingPathComponent("manifest.json").path))
        let snapshot = folder.appendingPathComponent("catalog.sqlite.vindex").path
        let (index, _) = try await VisualIndexSnapshot.refresh(store: store, path: snapshot)
        var queries: [Fingerprint] = []
        let query = ImageFingerprinter.query
        for name in try FileManager.default.contentsOfDirectory(atPath: negativesFolder.path).sorted().prefix(8) {
            queries.append(try query.fingerprint(file: negativesFolder.appendingPathComponent(name).path))
        }
        for landmark in try store.allLandmarks().prefix(16) {
            let path = try #require(landmark.referenceImages.first?.path)
            queries.append(try query.fingerprint(file: path, region: .fractions(x: 0, y: 0, width: 0.34, height: 1)))
        }
        return (store, index, snapshot, queries)
    }

    @Test func readingEveryListAtFullRadiusGivesTheExhaustiveAnswers() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 16)))
        let everything = ScanStrategy.automatic(CandidateIndex.SearchParameters(probes: 16, radius: 128, maximumCandidates: 1_000_000,
                                                                                firstLook: nil))
        var matched = 0
        for query in queries {
            let exhaustive = try index.search(query, minimumScore: 0, strategy: .exhaustive)
            let firstStage = try staged.search(query, minimumScore: 0, strategy: everything)
            #expect(firstStage.matches == exhaustive.matches)
            if !exhaustive.matches.isEmpty { matched += 1 }
        }
        #expect(matched >= 16)
    }

    @Test func aSharedBudgetCoveringEveryListGivesTheExhaustiveAnswers() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 16)))
        // Every view may read every list: 24 views × all entries.
        let everything = ScanStrategy.automatic(CandidateIndex.SearchParameters(radius: 128, maximumCandidates: 1_000_000,
                                                                                entryBudget: 64 * index.viewCount, firstLook: nil))
        for query in queries {
            let exhaustive = try index.search(query, minimumScore: 0, strategy: .exhaustive)
            #expect(try staged.search(query, minimumScore: 0, strategy: everything).matches == exhaustive.matches)
        }
    }

    @Test func aSharedBudgetReadsTheNearestListsOfWhicheverViewFirstAndNoMoreThanItAllows() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let firstStage = try CandidateIndex.build(from: index, lists: 64)
        let query = try #require(queries.last)
        let codes = query.views.filter { $0.quality >= FingerprintView.minimumSearchableQuality }
            .map { CandidateIndex.QueryCode(code: CandidateCode(pHash: $0.pHash, dHash: $0.dHash), isFullFrame: $0.region == .full) }
        let lists = firstStage.listCount
        var distances: [UInt8] = []
        for code in codes { for l in 0..<lists { distances.append(UInt8(code.code.distance(to: firstStage.centroids[l]))) } }
        func cost(_ v: Int, _ l: Int) -> Int {
            Int(codes[v].isFullFrame ? firstStage.listOffsets[l + 1] : firstStage.fullEnds[l]) - Int(firstStage.listOffsets[l])
        }
        for budget in [1, 500, 5_000, 50_000] {
            let probed = firstStage.sharedProbes(codes, distances: distances, budget: budget)
            let pairs = probed.enumerated().flatMap { v, ls in ls.map { (v, $0) } }
            let read = pairs.map { cost($0.0, $0.1) }.reduce(0, +)
            let farthest = pairs.map { Int(distances[$0.0 * lists + $0.1]) }.max() ?? 0
            // Every pair nearer than the farthest one chosen is chosen too, whatever its view;
            // the budget is overspent by at most the last list.
            for v in codes.indices {
                for l in 0..<lists where Int(distances[v * lists + l]) < farthest { #expect(probed[v].contains(l)) }
                #expect(probed[v] == probed[v].sorted())
            }
            let largest = (0..<lists).map { cost(0, $0) }.max() ?? 0
            #expect(read < budget + largest)
            #expect(!pairs.isEmpty)
            // Deterministic.
            #expect(firstStage.sharedProbes(codes, distances: distances, budget: budget) == probed)
        }
    }

    /// `candidates` against a plain reading of its contract: each view's nearest lists (ties
    /// by list number), every entry within the radius (full-frame ones only for an inner
    /// view), each landmark at its nearest entry, the nearest kept up to the cap, ties at the
    /// cut by landmark number; on every instruction set.
    @Test func theCandidatesAreTheLandmarksNearestInTheProbedListsWithTiesInNumberOrder() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let firstStage = try CandidateIndex.build(from: index, lists: 16)
        let lists = firstStage.listCount, landmarks = firstStage.viewStarts.count - 1
        for query in queries.suffix(6) {
            let codes = query.views.filter { $0.quality >= FingerprintView.minimumSearchableQuality }
                .map { CandidateIndex.QueryCode(code: CandidateCode(pHash: $0.pHash, dHash: $0.dHash), isFullFrame: $0.region == .full) }
            for (probes, radius, cap) in [(1, 48, 1_000_000), (2, 40, 7), (3, 56, 1), (16, 128, 5), (4, 30, 3)] {
                var nearest = [Int](repeating: Int.max, count: landmarks)
                for code in codes {
                    let wanted = min(lists, code.isFullFrame ? probes : 4 * probes)
                    let chosen = (0..<lists).sorted { (code.code.distance(to: firstStage.centroids[$0]), $0) < (code.code.distance(to: firstStage.centroids[$1]), $1) }.prefix(wanted)
                    for l in chosen {
                        let end = code.isFullFrame ? Int(firstStage.listOffsets[l + 1]) : Int(firstStage.fullEnds[l])
                        for k in Int(firstStage.listOffsets[l])..<end {
                            let d = code.code.distance(to: firstStage.codes[k])
                            let owner = Int(firstStage.references[k] & ~CandidateIndexLayout.fullFrameBit)
                            if d <= radius { nearest[owner] = min(nearest[owner], d) }
                        }
                    }
                }
                let expected = (0..<landmarks).filter { nearest[$0] != Int.max }
                    .sorted { (nearest[$0], $0) < (nearest[$1], $1) }.prefix(cap).map(Int32.init).sorted()
                for isa in InstructionSet.allCases where isa.isSupported {
                    let parameters = CandidateIndex.SearchParameters(probes: probes, radius: radius, maximumCandidates: cap, innerProbeFactor: 4, firstLook: nil)
                    #expect(firstStage.candidates(for: codes, parameters: parameters, using: isa) == expected, "probes \(probes), radius \(radius), cap \(cap), \(isa)")
                }
            }
        }
    }

    /// The candidates cut from a table of nearest distances (``CandidateIndex/entries(of:atMost:atCut:count:block:using:)``)
    /// are its first entries within the cut in table order, those at the cut while they last,
    /// across block boundaries, with every instruction set's byte compare.
    @Test(.comparingEveryInstructionSet) func theCutKeepsTheFirstEntriesWithinItInTableOrderAcrossBlocksOnEveryInstructionSet() {
        var generator = SeededGenerator(seed: 2026)
        let radius = 48
        // Mostly untouched (radius + 1), as a million-landmark table is; runs of touched entries.
        let table = (0..<10_007).map { _ in UInt8.random(in: 0...3, using: &generator) == 0 ? UInt8.random(in: 0...UInt8(radius), using: &generator) : UInt8(radius + 1) }
        func expected(_ cut: Int, _ atCut: Int, _ count: Int) -> [Int32] {
            var left = atCut, kept: [Int32] = []
            for (o, d) in table.enumerated() where Int(d) <= cut && kept.count < count {
                if Int(d) < cut { kept.append(Int32(o)) } else if left > 0 { kept.append(Int32(o)); left -= 1 }
            }
            return kept
        }
        let touched = table.filter { Int($0) <= radius }.count
        for (cut, atCut, count) in [(radius, Int.max, touched), (20, 7, 200), (0, 3, 3), (47, 0, 100), (30, 1_000, 1_000_000)] {
            for block in [1, 7, 64, 100, 4096, 20_000] {
                for isa in InstructionSet.allCases where isa.isSupported {
                    let kept = table.withUnsafeBufferPointer { CandidateIndex.entries(of: $0, atMost: cut, atCut: atCut, count: count, block: block, using: isa) }
                    #expect(kept == expected(cut, atCut, count), "cut \(cut), at cut \(atCut), count \(count), block \(block), \(isa)")
                }
            }
        }
    }

    @Test func theCascadeScansEveryViewWhenTheBestCandidateScoresWithinTheUnsureRangeAndOnlyThen() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 64)))
        // A first stage that reads two lists of 64 and keeps two candidates misses many answers.
        let meagre = CandidateIndex.SearchParameters(probes: 2, radius: 48, maximumCandidates: 2, innerProbeFactor: 1, unsureScores: nil,
                                                     firstLook: nil)
        // Sure from the median of the scores it finds: some queries are, some are not.
        let found = try queries.compactMap { try staged.search($0, minimumScore: 0.4, strategy: .automatic(meagre)).matches.first?.score }.sorted()
        try #require(found.count >= 2)
        let confident = found[found.count / 2]
        var cascade = meagre
        cascade.unsureScores = 0 ..< confident
        var fellBack = 0, answeredAlone = 0, repaired = 0
        for query in queries {
            let exhaustive = try index.search(query, minimumScore: 0.4, strategy: .exhaustive)
            let alone = try staged.search(query, minimumScore: 0.4, strategy: .automatic(meagre))
            let outcome = try staged.search(query, minimumScore: 0.4, strategy: .automatic(cascade))
            #expect(!alone.scannedEveryView && exhaustive.scannedEveryView)
            if (alone.matches.first?.score ?? 0) >= confident {
                // Sure enough: the candidates' answer, and nothing more was scanned.
                #expect(outcome.matches == alone.matches && !outcome.scannedEveryView)
                answeredAlone += 1
            } else {
                // Not sure: the exhaustive scan's answer, its pairs and the candidates' counted.
                #expect(outcome.matches == exhaustive.matches && outcome.scannedEveryView)
                #expect(outcome.comparedPairs == exhaustive.comparedPairs + alone.comparedPairs)
                fellBack += 1
                if alone.matches.first?.landmarkID != exhaustive.matches.first?.landmarkID { repaired += 1 }
            }
        }
        // Both branches are exercised: the negatives are never sure, half the found crops are.
        // and the candidates alone missed answers that the cascade gives.
        #expect(fellBack >= 8 && answeredAlone >= 1 && repaired >= 1)

        // An unsure range starting above 0: a query whose best candidate scores below it (or
        // that has none) is answered by the candidates, even when its best is under the
        // minimum score (then no match); one within it by the exhaustive scan.
        let from = 0.3
        var band = meagre
        band.unsureScores = from ..< confident
        var quietNegatives = 0
        for query in queries {
            let best = try staged.search(query, minimumScore: 0, strategy: .automatic(meagre)).matches.first?.score ?? 0
            let outcome = try staged.search(query, minimumScore: 0.4, strategy: .automatic(band))
            if best >= from && best < confident {
                #expect(outcome.matches == (try index.search(query, minimumScore: 0.4, strategy: .exhaustive)).matches && outcome.scannedEveryView)
            } else {
                #expect(outcome.matches == (try staged.search(query, minimumScore: 0.4, strategy: .automatic(meagre))).matches && !outcome.scannedEveryView)
                if best < from { quietNegatives += 1 }
            }
        }
        #expect(quietNegatives >= 1)
    }

    @Test func aCascadeScanCutByItsDeadlineKeepsTheCandidatesItHadScored() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 64)))
        let meagre = CandidateIndex.SearchParameters(probes: 2, radius: 48, maximumCandidates: 2, innerProbeFactor: 1, unsureScores: nil,
                                                     firstLook: nil)
        var cascade = meagre
        cascade.unsureScores = 0 ..< 1.01   // never sure: every search goes on to its scan of every view
        var kept = 0
        for query in queries {
            let alone = try staged.search(query, minimumScore: 0.4, strategy: .automatic(meagre))
            // A deadline already passed: the scan stops before its first chunk.
            let cut = try staged.search(query, minimumScore: 0.4, deadline: .now, strategy: .automatic(cascade))
            #expect(cut.isPartial == alone.queryIsInformative)
            if cut.isPartial {
                #expect(cut.matches == alone.matches)
                kept += alone.matches.count
            }
            // With time enough, the scan's answer: the candidates add nothing to a whole scan.
            let whole = try staged.search(query, minimumScore: 0.4, strategy: .automatic(cascade))
            let exhaustive = try index.search(query, minimumScore: 0.4, strategy: .exhaustive)
            #expect(!whole.isPartial && whole.matches == exhaustive.matches)
        }
        // Some cut searches had candidates to keep (the crops of catalog photos).
        #expect(kept >= 1)
    }

    @Test func aFirstLookAnswersTheQueriesItIsSureOfAndLeavesTheOthersToTheWholeFirstStage() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 64)))
        let glance = CandidateIndex.SearchParameters(probes: 2, radius: 48, maximumCandidates: 4, unsureScores: nil)
        // Sure from the median of the scores the glance finds (the sample's crops score less
        // than the default's 0.45): some queries are, some are not.
        let found = try queries.compactMap { try staged.search($0, minimumScore: 0.4, strategy: .automatic(glance)).matches.first?.score }.sorted()
        try #require(found.count >= 2)
        let sure = found[found.count / 2]
        let whole = CandidateIndex.SearchParameters(probes: 16, radius: 48, maximumCandidates: 64, unsureScores: 0 ..< sure, firstLook: nil)
        var looking = whole
        looking.firstLook = .init(probes: 2, maximumCandidates: 4, sureScore: sure)
        var atFirstLook = 0, afterIt = 0
        for query in queries {
            let first = try staged.search(query, minimumScore: 0, strategy: .automatic(glance))
            let without = try staged.search(query, minimumScore: 0.4, strategy: .automatic(whole))
            let outcome = try staged.search(query, minimumScore: 0.4, strategy: .automatic(looking))
            if (first.matches.first?.score ?? 0) >= sure {
                // Sure at the first look: its answer, from four candidates, nothing more read.
                #expect(outcome.answeredAtFirstLook && !outcome.scannedEveryView)
                #expect(outcome.matches == first.matches.filter { $0.score >= 0.4 } && outcome.comparedPairs == first.comparedPairs)
                atFirstLook += 1
            } else {
                // Not sure: the search without a first look, the first look's pairs counted too.
                #expect(!outcome.answeredAtFirstLook && outcome.matches == without.matches)
                #expect(outcome.scannedEveryView == without.scannedEveryView && outcome.comparedPairs == without.comparedPairs + first.comparedPairs)
                afterIt += 1
            }
        }
        #expect(atFirstLook >= 1 && afterIt >= 8, "both ways are taken: \(atFirstLook) sure at the first look, \(afterIt) not")
        var noCascade = looking
        noCascade.unsureScores = nil
        for query in queries.prefix(4) {
            let outcome = try staged.search(query, minimumScore: 0.4, strategy: .automatic(noCascade))
            #expect(!outcome.answeredAtFirstLook, "without a cascade there is no sure score, so no first look")
        }
    }

    @Test func aGlanceAnswersFromTheUprightFrameAloneWhenSureAndOtherwiseLeavesTheFirstLooksAnswer() async throws {
        let (store, index, _, crops) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 64)))
        // Whole catalog photos (what the glance is for) beside the crops and negatives.
        var queries = crops
        for landmark in try store.allLandmarks().prefix(6) {
            queries.append(try ImageFingerprinter.query.fingerprint(file: try #require(landmark.referenceImages.first?.path)))
        }
        let without = CandidateIndex.SearchParameters(probes: 16, radius: 48, maximumCandidates: 64,
                                                      firstLook: .init(probes: 4, maximumCandidates: 16, sureScore: 0.6))
        var glancing = without
        glancing.firstLook?.glanceCandidates = 4
        // The glance's table (the first full-frame view's alone) is that view's row of the query's whole table.
        let firstStage = try #require(staged.firstStage)
        let table = firstStage.probeTable(for: queries[0], minimumViewQuality: index.minimumViewQuality)
        let v = try #require(table.codes.firstIndex { $0.isFullFrame })
        let upright = firstStage.probeTable(for: [table.codes[v]])
        #expect(upright.distances == Array(table.distances[v * table.lists ..< (v + 1) * table.lists]))
        #expect(upright.histograms == Array(table.histograms[129 * v ..< 129 * (v + 1)]))
        var atGlance = 0, notAtGlance = 0
        for query in queries {
            let exhaustive = try index.search(query, minimumScore: 0, strategy: .exhaustive)
            let reference = Dictionary(uniqueKeysWithValues: exhaustive.matches.map { ($0.landmarkID, $0.score) })
            let before = try staged.search(query, minimumScore: 0.4, strategy: .automatic(without))
            let outcome = try staged.search(query, minimumScore: 0.4, strategy: .automatic(glancing))
            // Every score is the exhaustive scan's, whichever stage answered.
            for match in outcome.matches { #expect(reference[match.landmarkID] == match.score) }
            // The first round of the cascade across partitions: the glance and the first look,
            // the search's own answer when either is sure, never more than the first look.
            let round = try staged.search(query, minimumScore: 0.4, strategy: ScanStrategy.automatic(glancing).forRound(.firstLook))
            #expect(!round.scannedEveryView && round.firstStageBest != nil && round.answeredAtGlance == outcome.answeredAtGlance)
            if outcome.answeredAtFirstLook {
                #expect(round.answeredAtFirstLook && round.matches == outcome.matches && round.comparedPairs == outcome.comparedPairs)
            } else {
                #expect(!round.answeredAtFirstLook && round.comparedPairs <= outcome.comparedPairs)
                for match in round.matches { #expect(reference[match.landmarkID] == match.score) }
            }
            if outcome.answeredAtGlance {
                // Sure from one view's lists: fewer pairs than the first look it spared.
                #expect(outcome.answeredAtFirstLook && !outcome.scannedEveryView)
                #expect((outcome.matches.first?.score ?? 0) >= 0.6 && outcome.comparedPairs < before.comparedPairs)
                #expect(outcome.matches.first?.landmarkID == before.matches.first?.landmarkID)
                atGlance += 1
            } else {
                // Not sure: the search without a glance, its candidates merged in when the first
                // look answers (exact scores, so never a worse page), its pairs counted.
                #expect(outcome.answeredAtFirstLook == before.answeredAtFirstLook && outcome.scannedEveryView == before.scannedEveryView)
                #expect(outcome.comparedPairs >= before.comparedPairs)
                #expect(Set(before.matches).isSubset(of: Set(outcome.matches)))
                #expect(outcome.matches.first?.landmarkID == before.matches.first?.landmarkID)
                if !before.answeredAtFirstLook { #expect(outcome.matches == before.matches) }
                notAtGlance += 1
            }
        }
        #expect(atGlance >= 3 && notAtGlance >= 8, "both ways are taken: \(atGlance) sure at the glance, \(notAtGlance) not")
    }

    @Test func aFirstLookThatFindsNothingLikeTheQueryScansEveryViewWithoutTheRestOfTheFirstStage() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 64)))
        let glance = CandidateIndex.SearchParameters(probes: 2, radius: 48, maximumCandidates: 4, unsureScores: nil)
        let sure = 0.6
        let whole = CandidateIndex.SearchParameters(probes: 16, radius: 48, maximumCandidates: 64, firstLook: .init(probes: 2, maximumCandidates: 4, sureScore: sure))
        // Scan-below from the middle of the first look's best scores within the unsure range:
        // some queries under it, some not.
        let firstBest = try queries.map { try staged.search($0, minimumScore: 0, strategy: .automatic(glance)).matches.first?.score ?? 0 }
        let unsure = Set(firstBest.filter { CandidateIndex.SearchParameters.defaultUnsureScores.contains($0) }).sorted()
        try #require(unsure.count >= 2)
        let scanBelow = unsure[unsure.count / 2]
        var skipping = whole
        skipping.firstLook?.scanBelow = scanBelow
        var skipped = 0, staying = 0
        for (query, best) in zip(queries, firstBest) {
            let first = try staged.search(query, minimumScore: 0, strategy: .automatic(glance))
            let outcome = try staged.search(query, minimumScore: 0.4, strategy: .automatic(skipping))
            if best < scanBelow {
                // Straight to the scan: its answer, its pairs and the first look's, nothing else.
                let exhaustive = try index.search(query, minimumScore: 0.4, strategy: .exhaustive)
                #expect(outcome.scannedEveryView && !outcome.answeredAtFirstLook && outcome.matches == exhaustive.matches)
                #expect(outcome.comparedPairs == exhaustive.comparedPairs + first.comparedPairs)
                // In an index above its size limit the scan-below score is not used.
                var larger = skipping
                larger.firstLook?.scanBelowMaximumViews = index.viewCount - 1
                #expect(try staged.search(query, minimumScore: 0.4, strategy: .automatic(larger))
                    == staged.search(query, minimumScore: 0.4, strategy: .automatic(whole)))
                skipped += 1
            } else {
                // Otherwise the search without a scan-below score, pair for pair.
                let without = try staged.search(query, minimumScore: 0.4, strategy: .automatic(whole))
                #expect(outcome == without)
                staying += 1
            }
        }
        #expect(skipped >= 1 && staying >= 1, "both ways are taken: \(skipped) scanned at once, \(staying) not")
    }

    @Test func theFirstStageAloneIsTheCascadeStoppedBeforeItsScanOfEveryView() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 64)))
        // Unsure below the median best of the first stage (the sample's crops score less than
        // the default's 0.45), a first look sure from there, nothing-like-it below the first
        // look's lower quartile: every way out of the cascade is taken.
        let glance = CandidateIndex.SearchParameters(probes: 2, radius: 48, maximumCandidates: 4, unsureScores: nil)
        let firstBest = try queries.map { try staged.search($0, minimumScore: 0, strategy: .automatic(glance)).matches.first?.score ?? 0 }.sorted()
        let meagre = CandidateIndex.SearchParameters(probes: 16, radius: 48, maximumCandidates: 64, unsureScores: nil)
        let found = try queries.map { try staged.search($0, minimumScore: 0, strategy: .automatic(meagre)).matches.first?.score ?? 0 }.sorted()
        let confident = found[found.count / 2]
        var parameters = meagre
        parameters.unsureScores = 0 ..< confident
        parameters.firstLook = .init(probes: 2, maximumCandidates: 4, sureScore: confident, scanBelow: firstBest[firstBest.count / 4] + 1e-9)
        let unsure = try #require(parameters.unsureScores)
        var sure = 0, unsureCount = 0
        for query in queries {
            let cascade = try staged.search(query, minimumScore: 0.4, strategy: .automatic(parameters))
            let alone = try staged.search(query, minimumScore: 0.4, strategy: .firstStageOnly(parameters))
            let best = try #require(alone.firstStageBest, "an index with a first stage reports its best candidate")
            #expect(!alone.scannedEveryView && alone.matches.allSatisfy { $0.score >= 0.4 })
            #expect(best >= (alone.matches.first?.score ?? 0))
            if unsure.contains(best) {
                // The cascade would scan every view: its answer is the exhaustive scan's.
                let exhaustive = try index.search(query, minimumScore: 0.4, strategy: .exhaustive)
                #expect(cascade.scannedEveryView && cascade.matches == exhaustive.matches)
                unsureCount += 1
            } else {
                // Sure: the candidates' answer is the cascade's, match for match.
                #expect(!cascade.scannedEveryView && cascade.matches == alone.matches)
                sure += 1
            }
            #expect(cascade.firstStageBest == nil, "the cascade decides itself")
            // Every candidate's score is its exact score.
            let exhaustive = try index.search(query, minimumScore: 0.4, strategy: .exhaustive).matches
            for match in alone.matches { #expect(exhaustive.contains(match)) }
        }
        #expect(sure >= 1 && unsureCount >= 1, "both ways are taken: \(sure) sure, \(unsureCount) unsure")
        // The rounds of the cascade run across partitions: the first look alone, then the
        // whole first stage without it.
        #expect(ScanStrategy.automatic(parameters).forRound(.firstLook) == .firstLookOnly(parameters))
        var full = parameters
        full.firstLook = nil
        #expect(ScanStrategy.automatic(parameters).forRound(.full) == .firstStageOnly(full))
        #expect(ScanStrategy.exhaustive.forRound(.firstLook) == .exhaustive)
        // Without a first stage, every view is scanned and there is nothing to decide.
        for query in queries.prefix(3) {
            let plain = try index.search(query, minimumScore: 0.4, strategy: .firstStageOnly(parameters))
            #expect(plain.scannedEveryView && plain.firstStageBest == nil)
            let exhaustive = try index.search(query, minimumScore: 0.4, strategy: .exhaustive)
            #expect(plain.matches == exhaustive.matches)
        }
    }

    @Test func everyScoreTheDefaultFirstStageGivesIsTheExhaustiveScore() async throws {
        let (_, index, _, queries) = try await Self.sample()
        let staged = try #require(index.withFirstStage(try CandidateIndex.build(from: index, lists: 64)))
        var sameFirst = 0
        for query in queries {
            let exhaustive = try index.search(query, minimumScore: SimilarityScoring.defaultNoMatchThreshold, strategy: .exhaustive)
            let firstStage = try staged.search(query, minimumScore: SimilarityScoring.defaultNoMatchThreshold)
            let reference = Dictionary(uniqueKeysWithValues: exhaustive.matches.map { ($0.landmarkID, $0) })
            for match in firstStage.matches { #expect(reference[match.landmarkID] == match) }
            if firstStage.matches.first?.landmarkID == exhaustive.matches.first?.landmarkID { sameFirst += 1 }
            // Answered at the first look: fewer pairs compared than the exhaustive scan, which
            // compares them all, and a score of at least its sure score; by the whole first
            // stage: at least the unsure range's bound (this small catalog's pairs of both
            // stages may outnumber the exhaustive scan's); sent on by the default cascade (no
            // sure match: every negative): the exhaustive answer.
            let best = firstStage.matches.first?.score ?? 0
            if firstStage.scannedEveryView {
                #expect(firstStage.matches == exhaustive.matches && firstStage.comparedPairs >= exhaustive.comparedPairs)
            } else if firstStage.answeredAtFirstLook {
                #expect(firstStage.comparedPairs < exhaustive.comparedPairs)
                #expect(best >= CandidateIndex.SearchParameters.defaultFirstLook.sureScore)
            } else {
                #expect(best >= CandidateIndex.SearchParameters.defaultUnsureScores.upperBound)
            }
        }
        #expect(sameFirst == queries.count)
    }

    @Test func theBuildIsDeterministicAndItsFileIsBoundToItsIndex() async throws {
        let (store, index, snapshot, queries) = try await Self.sample()
        let a = try CandidateIndex.build(from: index, lists: 32), b = try CandidateIndex.build(from: index, lists: 32, threads: 1)
        #expect(a.bytesUsed == b.bytesUsed && memcmp(a.storage.base, b.storage.base, a.bytesUsed) == 0)
        #expect(a.listCount == 32 && a.entryCount == index.viewCount)
        // Written by refreshFirstStage and attached when the snapshot is loaded.
        let action = try await VisualIndexSnapshot.refreshFirstStage(store: store, path: snapshot, policy: .always, lists: 32)
        #expect(action == .written(lists: 32, bytes: a.bytesUsed))
        #expect(try await VisualIndexSnapshot.refreshFirstStage(store: store, path: snapshot, policy: .always) == .upToDate)
        let version = try store.catalogVersion()
        guard case .loaded(let mapped) = VisualIndexSnapshot.load(path: snapshot, expecting: version), let stage = mapped.firstStage else {
            Issue.record("the snapshot must load with its first stage")
            return
        }
        #expect(stage.bytesUsed == a.bytesUsed && memcmp(stage.storage.base + 32, a.storage.base + 32, a.bytesUsed - 32) == 0)
        for query in queries.prefix(6) {
            #expect(try mapped.search(query, minimumScore: 0) == (try index.withFirstStage(a)!.search(query, minimumScore: 0)))
        }
        // Another index (the catalog changed) refuses it; a damaged byte is refused.
        let path = CandidateIndex.path(forSnapshotAt: snapshot)
        _ = try await store.remove(EntityReference(kind: .landmark, id: try store.allLandmarks()[0].id))
        let (changed, _) = try await VisualIndexSnapshot.refresh(store: store, path: snapshot)
        guard case .stale = CandidateIndex.load(path: path, for: changed) else { Issue.record("a first stage of another index must be stale"); return }
        #expect(changed.firstStage == nil && changed.withFirstStage(a) == nil)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 100] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: path))
        guard case .damaged = CandidateIndex.load(path: path, for: index) else { Issue.record("a damaged first stage must be refused"); return }
        // Policy never removes the file.
        #expect(try await VisualIndexSnapshot.refreshFirstStage(store: store, path: snapshot, policy: .never) == .notWanted)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
