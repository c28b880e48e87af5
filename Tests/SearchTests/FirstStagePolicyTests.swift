import Catalog
import Testing
@testable import Search

/// Which catalogs get a first stage: by size by default, kept once made, and on request.
@Suite struct FirstStagePolicyTests {
    static let threshold = FirstStagePolicy.automaticMinimumViews

    @Test func automaticGivesAFirstStageFromTheMeasuredSizeOrWhenTheCatalogHadOne() {
        #expect(!FirstStagePolicy.automatic.wants(views: Self.threshold - 1, hadOne: false))
        #expect(FirstStagePolicy.automatic.wants(views: Self.threshold, hadOne: false))
        #expect(FirstStagePolicy.automatic.wants(views: 10, hadOne: true))
        #expect(!FirstStagePolicy.automatic.wants(views: 0, hadOne: true))
    }

    @Test func keepAlwaysAndNeverIgnoreTheSizeOneWayOrTheOther() {
        #expect(!FirstStagePolicy.keep.wants(views: Self.threshold * 4, hadOne: false))
        #expect(FirstStagePolicy.keep.wants(views: 10, hadOne: true))
        #expect(FirstStagePolicy.always.wants(views: 1, hadOne: false))
        #expect(!FirstStagePolicy.always.wants(views: 0, hadOne: false))
        #expect(!FirstStagePolicy.never.wants(views: Self.threshold * 4, hadOne: true))
    }

    /// What a server builds from the store: the sample catalog is far under the threshold, so
    /// no first stage unless the index it replaces had one (a compaction keeps it).
    @Test func anIndexBuiltFromContentsGetsAFirstStageByItsPolicy() async throws {
        let (store, _, _, _) = try await CandidateIndexTests.sample()
        let contents = try await PreparedSearchIndex.read(from: store)
        #expect(!PreparedSearchIndex(contents: contents, firstStage: .automatic).hasFirstStage)
        #expect(PreparedSearchIndex(contents: contents, firstStage: .automatic, hadFirstStage: true).hasFirstStage)
        #expect(PreparedSearchIndex(contents: contents, firstStage: .always).hasFirstStage)
        #expect(!PreparedSearchIndex(contents: contents, firstStage: .never, hadFirstStage: true).hasFirstStage)
    }

    /// One partition of a catalog weighs the whole catalog's size (its views times the
    /// partitions), so that all its partitions decide alike.
    @Test func aPartitionGetsAFirstStageByTheWholeCatalogsSize() async throws {
        let (store, _, _, _) = try await CandidateIndexTests.sample()
        let contents = try await PreparedSearchIndex.read(from: store)
        let views = PreparedSearchIndex(contents: contents).state.index.viewCount
        #expect(views > 0 && views < Self.threshold)
        let enough = (Self.threshold + views - 1) / views
        #expect(PreparedSearchIndex(contents: contents, firstStage: .automatic, partitions: enough).hasFirstStage)
        #expect(!PreparedSearchIndex(contents: contents, firstStage: .automatic, partitions: enough - 1).hasFirstStage)
        #expect(!PreparedSearchIndex(contents: contents, firstStage: .never, partitions: enough).hasFirstStage)
    }
}
