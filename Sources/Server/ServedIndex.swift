import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import Search
import Synchronization

/// One catalog version as the server searches it: the prepared index and the two query
/// front-ends over it (images are scored with every code; hash-only lookups with PDQ
/// alone), each with its own bounded cache of complete rankings. Immutable once built.
public struct ServedIndex: Sendable {
    /// Scoring profile of a ``SearchContinuation``: image searches and full-code lookups.
    static let visualProfile: UInt8 = 0
    /// Scoring profile of a ``SearchContinuation``: PDQ-only lookups.
    static let pdqOnlyProfile: UInt8 = 1
    /// Added to a profile when every view is scanned (`exact=true`), so that a page token
    /// continues in the mode its search began in.
    static let exhaustiveFlag: UInt8 = 2

    /// The prepared index.
    public let prepared: PreparedSearchIndex
    /// Queries scored with every code (PDQ, pHash, dHash, histogram).
    let visual: VisualSearchQuery
    /// Queries that carry only a PDQ hash, scored by PDQ distance alone.
    let pdqOnly: VisualSearchQuery
    /// ``visual`` and ``pdqOnly`` scanning every view (``ScanStrategy/exhaustive``).
    let visualExhaustive: VisualSearchQuery, pdqOnlyExhaustive: VisualSearchQuery

    /// Builds the served index of `contents` (read from `store` with
    /// ``PreparedSearchIndex/read(from:)``); entities are read from `store` when answering.
    /// CPU only: run it off the request executors.
    ///
    /// - Complexity: O(views log views + collection memberships).
    /// The first stage is built too when `firstStage` wants one for this size, the whole
    /// catalog's for a replica of one partition (``FirstStagePolicy/wants(views:hadOne:)``;
    /// `hadFirstStage`: the replaced index had one).
    static func build(store: any EntityStore, contents: PreparedSearchIndex.Contents, rankingCacheCapacity: Int,
                      firstStage: FirstStagePolicy = .never, hadFirstStage: Bool = false, fanOut: PartitionFanOut? = nil) -> ServedIndex {
        make(store: store, prepared: PreparedSearchIndex(contents: contents, firstStage: firstStage, hadFirstStage: hadFirstStage,
                                                         partitions: store.partition?.count ?? 1),
             rankingCacheCapacity: rankingCacheCapacity,
             fanOut: fanOut)
    }

    /// The served index over `prepared` (built in full or brought up to date
    /// incrementally), with empty ranking caches. With `fanOut`, `prepared` holds one
    /// partition and every search merges the other partitions' matches (each profile asks
    /// them with its own scoring). O(1).
    static func make(store: any EntityStore, prepared: PreparedSearchIndex, rankingCacheCapacity: Int, fanOut: PartitionFanOut? = nil) -> ServedIndex {
        let fingerprinter = ImageFingerprinter.query
        let fingerprint: @Sendable (PixelBuffer) -> Fingerprint = { fingerprinter.fingerprint(of: $0) }
        var pdqScoring = SimilarityScoring(pdqWeight: 1, pHashWeight: 0, dHashWeight: 0, histogramWeight: 0)
        pdqScoring.candidatePDQRadius = SimilarityScoring.default.candidatePDQRadius
        var exhaustive = SearchConfiguration()
        exhaustive.strategy = .exhaustive
        var pdqExhaustive = SearchConfiguration(scoring: pdqScoring)
        pdqExhaustive.strategy = .exhaustive
        return ServedIndex(
            prepared: prepared,
            visual: VisualSearchQuery(store: store, prepared: prepared, rankingCapacity: rankingCacheCapacity,
                                      otherPartitions: fanOut?.source(profile: visualProfile), fingerprint: fingerprint),
            pdqOnly: VisualSearchQuery(store: store, prepared: prepared, configuration: SearchConfiguration(scoring: pdqScoring),
                                       rankingCapacity: rankingCacheCapacity, otherPartitions: fanOut?.source(profile: pdqOnlyProfile),
                                       fingerprint: fingerprint),
            visualExhaustive: VisualSearchQuery(store: store, prepared: prepared, configuration: exhaustive,
                                                rankingCapacity: rankingCacheCapacity,
                                                otherPartitions: fanOut?.source(profile: visualProfile | exhaustiveFlag), fingerprint: fingerprint),
            pdqOnlyExhaustive: VisualSearchQuery(store: store, prepared: prepared, configuration: pdqExhaustive,
                                                 rankingCapacity: rankingCacheCapacity,
                                                 otherPartitions: fanOut?.source(profile: pdqOnlyProfile | exhaustiveFlag), fingerprint: fingerprint))
    }

    /// The query front-end of a continuation profile, `nil` for an unknown one.
    func query(profile: UInt8) -> VisualSearchQuery? {
        switch profile {
        case Self.visualProfile: visual
        case Self.pdqOnlyProfile: pdqOnly
        case Self.visualProfile | Self.exhaustiveFlag: visualExhaustive
        case Self.pdqOnlyProfile | Self.exhaustiveFlag: pdqOnlyExhaustive
        default: nil
        }
    }
}

/// Holds the index requests use and swaps in a new one atomically: a request takes the
/// current ``ServedIndex`` once and finishes on it even if a reload replaces it meanwhile
/// (the old one is freed when its last request ends). Lock-free for readers in practice
/// (a mutex held for one reference copy).
public final class IndexHolder: Sendable {
    private let current = Mutex<ServedIndex?>(nil)

    /// Creates an empty holder (not ready).
    public init() {}

    /// The index to use, or `nil` until the first one is loaded. O(1).
    public var index: ServedIndex? { current.withLock { $0 } }

    /// Makes `index` the one new requests use. O(1).
    func install(_ index: ServedIndex) {
        current.withLock { $0 = index }
    }
}
