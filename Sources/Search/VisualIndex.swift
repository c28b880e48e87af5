import Catalog
import Fingerprints

/// Every searchable view of a catalog in contiguous struct-of-arrays memory: PDQ words
/// (4 × UInt64 per view, the array the scan streams through), pHashes, dHashes, 64-byte
/// histograms, regions and the owning landmark, plus a contiguous copy of the full-frame
/// views' PDQ words. Built once per catalog version
/// and immutable afterwards, so it is shared freely between concurrent queries.
///
/// Views with quality below ``minimumViewQuality`` (blank, uniform images) are left out,
/// so they can never match anything. Landmarks are numbered in id order and
/// their views are stored consecutively, so ties resolve by id without string compares.
///
/// Memory: about 120 bytes per view (1,000,000 views ≈ 120 MB).
public struct VisualIndex: Sendable {
    /// The catalog state the index was built from.
    public let version: CatalogVersion
    /// Landmarks with at least one searchable view, sorted by id; a view's owner is an
    /// index into this array.
    public let landmarkIDs: [String]

    let pdqWords: [UInt64]
    let pHashes: [UInt64]
    let dHashes: [UInt64]
    let histograms: [UInt8]
    let owners: [Int32]
    let regions: [ViewRegion]
    /// PDQ words of the full-frame views only (what a query's inner crops are compared with).
    let fullPDQWords: [UInt64]
    /// For each full-frame view, its index in the arrays above.
    let fullViews: [Int32]

    /// Least PDQ quality of an indexed view (see ``SimilarityScoring/minimumViewQuality``);
    /// searches skip query views below it too.
    public let minimumViewQuality: Int

    /// Number of searchable views.
    public var viewCount: Int { owners.count }
    /// Number of full-frame views.
    public var fullViewCount: Int { fullViews.count }

    /// Builds the index from a store snapshot. O(views).
    public init(snapshot: FingerprintSnapshot, minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) {
        self.init(version: snapshot.version, entries: snapshot.entries, minimumViewQuality: minimumViewQuality)
    }

    /// Builds the index from (landmark id, fingerprints) entries, in any order. Entries
    /// with the same id are merged. O(views + landmarks log landmarks).
    public init(version: CatalogVersion, entries: [FingerprintSnapshot.Entry],
                minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality) {
        self.version = version
        self.minimumViewQuality = minimumViewQuality
        let sorted = entries.enumerated().sorted { ($0.element.landmarkID, $0.offset) < ($1.element.landmarkID, $1.offset) }.map(\.element)
        let viewEstimate = sorted.reduce(0) { $0 + $1.fingerprints.reduce(0) { $0 + $1.views.count } }
        var ids: [String] = []
        var pdq: [UInt64] = [], pHash: [UInt64] = [], dHash: [UInt64] = [], histograms: [UInt8] = []
        var owners: [Int32] = [], regions: [ViewRegion] = []
        var fullPDQ: [UInt64] = [], fullViews: [Int32] = []
        pdq.reserveCapacity(4 * viewEstimate)
        pHash.reserveCapacity(viewEstimate)
        dHash.reserveCapacity(viewEstimate)
        histograms.reserveCapacity(64 * viewEstimate)
        owners.reserveCapacity(viewEstimate)
        regions.reserveCapacity(viewEstimate)
        for entry in sorted {
            for fingerprint in entry.fingerprints {
                for view in fingerprint.views where view.quality >= minimumViewQuality {
                    if ids.last != entry.landmarkID { ids.append(entry.landmarkID) }
                    let index = Int32(owners.count)
                    view.pdq.appendWords(to: &pdq)
                    pHash.append(view.pHash)
                    dHash.append(view.dHash)
                    view.histogram.appendBins(to: &histograms)
                    owners.append(Int32(ids.count - 1))
                    regions.append(view.region)
                    if view.region == .full {
                        view.pdq.appendWords(to: &fullPDQ)
                        fullViews.append(index)
                    }
                }
            }
        }
        landmarkIDs = ids
        pdqWords = pdq
        pHashes = pHash
        dHashes = dHash
        self.histograms = histograms
        self.owners = owners
        self.regions = regions
        fullPDQWords = fullPDQ
        self.fullViews = fullViews
    }
}
