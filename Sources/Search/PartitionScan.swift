import Catalog

/// How much of each other partition a replica holding one partition asks to be searched
/// (``PartitionMatchSource/matches(for:minimumScore:limit:membershipOf:deadline:scan:)``).
///
/// A catalog split into partitions runs the first stage's cascade over all of them at
/// once, as one index over the whole catalog does: every partition's candidates first
/// (``firstStageOnly``), then, only when the best of them all is unsure, every view of the
/// partitions that answered from candidates (``everyView(of:)``). A partition lacking the
/// answer then costs its first stage, not a scan of all its views.
public enum PartitionScan: Sendable, Hashable {
    /// Each partition searches as the asker's profile does (its own cascade, or every view).
    case asProfile
    /// Each partition answers from its first stage alone when it has one
    /// (``PartitionMatchRequest/firstStageOnly``), reporting its best candidate's score in
    /// ``PartitionMatches/firstStageBest``.
    case firstStageOnly
    /// These partitions scan every view (the profile's exhaustive twin); the others are not asked.
    case everyView(of: Set<CatalogPartition>)
}
