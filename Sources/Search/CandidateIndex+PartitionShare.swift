extension CandidateIndex.SearchParameters {
    /// These parameters for the first stage of one of `partitions` partitions of a catalog,
    /// whose first stage has `lists` lists over `views` views: the share of the reading and
    /// of the scoring that one first stage over the whole catalog (about `views × partitions`
    /// views, ``CandidateIndex/defaultListCount(views:)`` lists) would spend there, so that
    /// the partitions together cost about what that one first stage costs rather than
    /// `partitions` times it.
    ///
    /// - Lists read (``probes``, the first look's probes): times `lists` over the whole
    ///   catalog's list count, rounded up: a partition's list covers the part of the code
    ///   space that two, four… lists of the whole catalog cover (with the default list
    ///   counts), so the same part of the code space is read.
    /// - An entry budget (``entryBudget``): divided by `partitions`, rounded up (each list
    ///   holds the partition's share of the entries).
    /// - Landmarks scored (``maximumCandidates``, the first look's and its glance's): `2 × k / partitions`,
    ///   rounded up, at most `k`: the whole catalog's `k` nearest landmarks fall into the
    ///   partitions about evenly (binomially: for k = 64 and 4 partitions, 16 ± 3.5 each),
    ///   so twice the even share keeps a partition's part of them.
    ///
    /// The unsure range, radius, sure and scan-below scores do not change. Unchanged for one
    /// partition, or `lists` or `views` of 0. Every value stays at least 1.
    /// - Complexity: O(log lists).
    public func share(ofPartitions partitions: Int, lists: Int, views: Int) -> Self {
        guard partitions > 1, lists > 0, views > 0 else { return self }
        let (total, overflow) = views.multipliedReportingOverflow(by: partitions)
        let wholeLists = CandidateIndex.defaultListCount(views: overflow ? .max : total)
        func listsRead(_ probes: Int) -> Int { max(1, Int(min(1e9, (Double(probes) * Double(lists) / Double(wholeLists)).rounded(.up)))) }
        func scored(_ count: Int) -> Int { max(1, min(count, (2 * count + partitions - 1) / partitions)) }
        var share = self
        share.probes = listsRead(probes)
        share.maximumCandidates = scored(maximumCandidates)
        share.entryBudget = entryBudget.map { max(1, ($0 + partitions - 1) / partitions) }
        if var look = firstLook {
            look.probes = listsRead(look.probes)
            look.maximumCandidates = scored(look.maximumCandidates)
            if look.glanceCandidates > 0 { look.glanceCandidates = scored(look.glanceCandidates) }
            share.firstLook = look
        }
        return share
    }
}
