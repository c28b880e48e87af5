import Catalog

/// How much of each other partition a replica holding one partition asks to be searched
/// (``PartitionMatchSource/matches(for:minimumScore:limit:membershipOf:deadline:scan:)``).
///
/// A catalog split into partitions runs the first stage's cascade over all of them at
/// once, as one index over the whole catalog runs it over its own: every partition's first
/// look, then (unless the best of them all is sure) every partition's whole first stage,
/// then (only when the best of all the candidates is still unsure) every view of the
/// partitions that answered from candidates. A partition lacking the answer costs its first
/// look, or its first stage, never a scan of all its views, unless no partition is sure.
public enum PartitionScan: Sendable, Hashable {
    /// Each partition searches as the asker's profile does (its own cascade, or every view).
    case asProfile
    /// The partitions in the set (every other one: `nil`) answer from this round of their
    /// first stage alone when they have one (``PartitionMatchRequest/firstStage``),
    /// reporting their best candidate's score in ``PartitionMatches/firstStageBest``; one
    /// without a first stage scans every view.
    case firstStage(FirstStageRound, of: Set<CatalogPartition>?)
    /// These partitions scan every view (the profile's exhaustive twin); the others are not asked.
    case everyView(of: Set<CatalogPartition>)
}
