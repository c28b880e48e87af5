import Testing
@testable import Catalog

/// The decisions of an index run's commit, written once for both stores (their effects on
/// real stores are checked by StoreConformanceTests).
@Suite struct CatalogRulesTests {
    @Test func onlyEntitiesRemovedForBeingMissingComeBackWithTheirSource() {
        #expect(CatalogRules.sourceRevives(removedFor: Removal.Reason.missingFromSource.rawValue))
        #expect(!CatalogRules.sourceRevives(removedFor: Removal.Reason.removedByUser.rawValue))
        #expect(!CatalogRules.sourceRevives(removedFor: Removal.Reason.archivedByUser.rawValue))
        #expect(!CatalogRules.sourceRevives(removedFor: nil))
        #expect(!CatalogRules.sourceRevives(removedFor: ""))
    }

    @Test func entitiesGoneFromTheSourceAreTheLiveOnesItNoLongerNamesSorted() {
        #expect(CatalogRules.goneFromSource(live: ["c", "a", "b", "d"], source: ["b", "x"]) == ["a", "c", "d"])
        #expect(CatalogRules.goneFromSource(live: [String](), source: ["b"]).isEmpty)
    }

    @Test func changedEntitiesAreDigestDifferencesAndRefingerprintedOnesInKindAndIDOrder() {
        let a = EntityReference(kind: .landmark, id: "a"), b = EntityReference(kind: .landmark, id: "b")
        let c = EntityReference(kind: .collection, id: "c"), d = EntityReference(kind: .landmark, id: "d")
        let before = [a: "1", b: "2", c: "3"], after = [a: "1", b: "2*", d: "4"]
        // b changed, c went, d came, a is the same but was fingerprinted again.
        #expect(CatalogRules.changed(before: before, after: after, refingerprinted: [a]) == [c, a, b, d])
        #expect(CatalogRules.changed(before: before, after: before, refingerprinted: []).isEmpty)
    }
}
