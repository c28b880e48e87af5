import Catalog
import Fingerprints

/// A seeded, synthetic catalog for load tests, start-up measurements and benchmarks: many
/// landmarks whose fingerprints have the real layout's view count and regions and
/// realistic code statistics, without any image files.
///
/// Each landmark gets one reference image (`synthetic/<id>.jpg`, a path that does not exist)
/// whose full-frame PDQ, pHash, dHash and aHash are uniformly random; every other view's
/// codes are the full frame's with each bit flipped with probability 1/4 (the crops of one
/// photo are related, about 64 of 256 PDQ bits from the full frame, while unrelated images
/// sit near 128). Qualities are 20…100 (all informative), histograms 32 random increments
/// of 8 (bins summing to 256, as a normalised histogram does). Landmarks are spread over
/// `collections` collections round-robin. The same parameters and seed always give the same
/// catalog.
public struct SyntheticCatalog: Sendable {
    /// Prefix of every synthetic landmark and collection id (`synthetic/…`).
    public static let idPrefix = "synthetic/"

    /// Number of landmarks.
    public var landmarkCount: Int
    /// Views per fingerprint (default: the catalog layout's, 31).
    public var viewsPerLandmark: Int
    /// Number of collections (0: none).
    public var collectionCount: Int
    /// Seed of the ``SeededGenerator``.
    public var seed: UInt64

    /// Creates a description of a synthetic catalog (nothing is generated yet).
    public init(landmarks: Int, viewsPerLandmark: Int = FingerprintViewLayout.catalog.viewCount, collections: Int = 0, seed: UInt64 = 1) {
        landmarkCount = max(0, landmarks)
        self.viewsPerLandmark = max(1, min(255, viewsPerLandmark))
        collectionCount = max(0, collections)
        self.seed = seed
    }

    /// Total number of views.
    public var viewCount: Int { landmarkCount * viewsPerLandmark }

    /// The id of landmark `i` (zero-padded so id order is number order). O(1).
    public static func landmarkID(_ i: Int) -> String {
        let digits = String(i)
        return idPrefix + "L" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The landmarks (with fingerprints) and collections.
    /// - Complexity: O(views), about 30 random numbers a view.
    public func content() -> CatalogContent {
        var generator = SeededGenerator(seed: seed)
        let regions = viewRegions
        var landmarks: [LandmarkEntity] = []
        landmarks.reserveCapacity(landmarkCount)
        for i in 0..<landmarkCount {
            let id = Self.landmarkID(i)
            let fingerprint = nextFingerprint(regions: regions, using: &generator)
            landmarks.append(LandmarkEntity(
                id: id, name: "Synthetic landmark \(i)", continent: nil, description: "Generated for load tests.",
                keywords: ["synthetic"], referenceImages: [ReferenceImage(path: id + ".jpg", fingerprint: fingerprint)]))
        }
        var collections: [CollectionEntity] = []
        if collectionCount > 0 {
            var members = [[String]](repeating: [], count: collectionCount)
            for (i, landmark) in landmarks.enumerated() { members[i % collectionCount].append(landmark.id) }
            collections = members.enumerated().map { k, ids in
                CollectionEntity(id: Self.idPrefix + "C\(k)", name: "Synthetic collection \(k)", landmarkIDs: ids)
            }
        }
        return CatalogContent(landmarks: landmarks, collections: collections)
    }

    /// The view regions of every landmark's fingerprint: the catalog layout's, repeated
    /// when ``viewsPerLandmark`` is larger. O(views per landmark).
    var viewRegions: [ViewRegion] {
        let layoutRegions = FingerprintViewLayout.catalog.viewRegions
        return (0..<viewsPerLandmark).map { layoutRegions[$0 % layoutRegions.count] }
    }

    /// The next landmark's fingerprint, drawn from `generator` (landmark i's is the i-th
    /// draw from a generator seeded with ``seed``), with the real catalog layout's version
    /// when the view count is the layout's (so the catalog is not "outdated"). O(regions).
    func nextFingerprint(regions: [ViewRegion], using generator: inout SeededGenerator) -> Fingerprint {
        var fingerprint = Self.fingerprint(regions: regions, using: &generator)
        if viewsPerLandmark == FingerprintViewLayout.catalog.viewCount { fingerprint.layoutVersion = FingerprintViewLayout.catalogVersion }
        return fingerprint
    }

    /// One synthetic fingerprint with the given view regions (see the type's documentation),
    /// drawing its codes from `generator`.
    /// - Complexity: O(regions).
    public static func fingerprint(regions: [ViewRegion], using generator: inout SeededGenerator) -> Fingerprint {
        let base = (a: generator.next(), d: generator.next(), p: generator.next(),
                    pdq: SIMD4(generator.next(), generator.next(), generator.next(), generator.next()))
        var views: [FingerprintView] = []
        views.reserveCapacity(regions.count)
        for (k, region) in regions.enumerated() {
            // Each bit flipped with probability 1/4 (AND of two random words) except in the full frame.
            func related(_ word: UInt64) -> UInt64 { k == 0 ? word : word ^ (generator.next() & generator.next()) }
            let pdq = SIMD4(related(base.pdq[0]), related(base.pdq[1]), related(base.pdq[2]), related(base.pdq[3]))
            var bins = SIMD64<UInt8>()
            for _ in 0..<32 { bins[Int(generator.next() % 64)] &+= 8 }
            views.append(FingerprintView(
                region: region, aHash: related(base.a), dHash: related(base.d), pHash: related(base.p),
                pdq: PDQHash(words: pdq), quality: 20 + Int(generator.next() % 81), histogram: ColorHistogram(packed: bins)))
        }
        return Fingerprint(views: views)
    }
}
