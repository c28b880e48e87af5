import Testing
@testable import Search

/// A partition's first stage reads and scores its share of what one first stage of the whole
/// catalog would: lists in proportion to its list count, landmarks scored at twice the even
/// share, the cascade's scores unchanged; one partition, or no first stage, unchanged.
@Suite struct PartitionShareTests {
    @Test func aQuarterOfAMillionImageCatalogReadsHalfTheListsAndScoresHalfTheCandidates() {
        let defaults = CandidateIndex.SearchParameters()
        // 31 M views whole: 8,192 lists; one of 4 partitions holds 7.75 M views and 4,096 lists.
        let views = 7_750_000
        #expect(CandidateIndex.defaultListCount(views: views * 4) == 8_192)
        let lists = CandidateIndex.defaultListCount(views: views)
        #expect(lists == 4_096)
        let share = defaults.share(ofPartitions: 4, lists: lists, views: views)
        #expect(share.probes == 64 && share.maximumCandidates == 512)
        #expect(share.firstLook?.probes == 4 && share.firstLook?.maximumCandidates == 32)
        #expect(share.firstLook?.glanceCandidates == 32 && share.firstLook?.glanceSureScore == defaults.firstLook?.glanceSureScore)
        #expect(share.radius == defaults.radius && share.innerProbeFactor == defaults.innerProbeFactor)
        #expect(share.unsureScores == defaults.unsureScores)
        #expect(share.firstLook?.sureScore == defaults.firstLook?.sureScore && share.firstLook?.scanBelow == defaults.firstLook?.scanBelow)
        #expect(share.firstLook?.scanBelowMaximumViews == defaults.firstLook?.scanBelowMaximumViews)
    }

    @Test func partitionsWithAsManyListsAsTheWholeCatalogReadAsManyLists() {
        // Small catalogs: 64 lists whole and in each partition.
        #expect(CandidateIndex.defaultListCount(views: 1_500) == 64)
        let share = CandidateIndex.SearchParameters().share(ofPartitions: 3, lists: 64, views: 500)
        #expect(share.probes == 128 && share.firstLook?.probes == 8)
        #expect(share.maximumCandidates == 683 && share.firstLook?.maximumCandidates == 43)
        // Two partitions score as many landmarks as the whole catalog (twice the even share).
        let two = CandidateIndex.SearchParameters().share(ofPartitions: 2, lists: 64, views: 500)
        #expect(two.maximumCandidates == 1_024 && two.firstLook?.maximumCandidates == 64)
    }

    @Test func entryBudgetsAreSplitAndEveryValueStaysAtLeastOne() {
        let tiny = CandidateIndex.SearchParameters(probes: 1, maximumCandidates: 1, entryBudget: 10,
                                                   firstLook: .init(probes: 1, maximumCandidates: 1, sureScore: 0.6))
        let share = tiny.share(ofPartitions: 16, lists: 1_024, views: 1_000_000)
        #expect(share.probes == 1 && share.maximumCandidates == 1 && share.entryBudget == 1)
        #expect(share.firstLook?.probes == 1 && share.firstLook?.maximumCandidates == 1)
        #expect(share.firstLook?.glanceCandidates == 0, "no glance stays none")
        #expect(CandidateIndex.SearchParameters(entryBudget: 100_000).share(ofPartitions: 4, lists: 64, views: 10).entryBudget == 25_000)
    }

    @Test func onePartitionOrNoFirstStageChangesNothing() {
        let defaults = CandidateIndex.SearchParameters()
        #expect(defaults.share(ofPartitions: 1, lists: 4_096, views: 7_750_000) == defaults)
        #expect(defaults.share(ofPartitions: 4, lists: 0, views: 7_750_000) == defaults)
        #expect(ScanStrategy.automatic(defaults).forPartition(of: 4, lists: nil, views: 7_750_000) == .automatic(defaults))
        #expect(ScanStrategy.exhaustive.forPartition(of: 4, lists: 4_096, views: 7_750_000) == .exhaustive)
        #expect(ScanStrategy.firstStageOnly(defaults).forPartition(of: 4, lists: 4_096, views: 7_750_000)
            == .firstStageOnly(defaults.share(ofPartitions: 4, lists: 4_096, views: 7_750_000)))
    }
}
