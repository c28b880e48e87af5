import Catalog
import Fingerprints
import Foundation
import SQLiteStore
@testable import Search
import SyntheticData

/// Synthetic fingerprints with controlled similarity, and small catalogs built from the
/// fixture images in `testdata/catalog-fixtures`.
enum SearchFixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/catalog-fixtures")

    /// A random-looking, informative fingerprint determined by `seed` (3 views: full and
    /// two centre crops, like the catalog layout's first views).
    static func fingerprint(seed: UInt64, views: Int = 3, quality: Int = 80) -> Fingerprint {
        var generator = SeededGenerator(seed: seed)
        return Fingerprint(views: (0..<views).map { index in
            let fraction = Float(1) - Float(index) * 0.15
            return FingerprintView(
                region: index == 0 ? .full : ViewRegion(x: (1 - fraction) / 2, y: (1 - fraction) / 2, width: fraction, height: fraction),
                aHash: generator.next(), dHash: generator.next(), pHash: generator.next(),
                pdq: PDQHash(words: SIMD4(generator.next(), generator.next(), generator.next(), generator.next())),
                quality: quality, histogram: histogram(&generator))
        })
    }

    static func histogram(_ generator: inout SeededGenerator) -> ColorHistogram {
        var bins = [UInt8](repeating: 0, count: 64)
        for _ in 0..<255 { bins[Int(generator.next() % 64)] &+= 1 }
        return ColorHistogram(bins: bins)
    }

    /// `fingerprint` with `bits` bits flipped in each hash of every view (a mild edit).
    static func perturbed(_ fingerprint: Fingerprint, bits: Int, seed: UInt64 = 99) -> Fingerprint {
        var generator = SeededGenerator(seed: seed)
        var copy = fingerprint
        for v in copy.views.indices {
            for _ in 0..<bits {
                copy.views[v].pHash ^= 1 << (generator.next() % 64)
                copy.views[v].dHash ^= 1 << (generator.next() % 64)
                let w = Int(generator.next() % 4)
                copy.views[v].pdq.words[w] ^= 1 << (generator.next() % 64)
                copy.views[v].pdq.words[(w + 1) % 4] ^= 1 << (generator.next() % 64)
            }
        }
        return copy
    }

    /// A blank (uninformative) fingerprint: quality 0, all-zero codes.
    static let blank = Fingerprint(views: [FingerprintView(region: .full, aHash: 0, dHash: 0, pHash: 0, pdq: .zero, quality: 0, histogram: .empty)])

    /// A scratch folder with a manifest whose landmarks use the fixture images.
    static func catalog(_ landmarks: [(id: String, image: String, keywords: [String])], collections: [(id: String, members: [String])]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let images = root.appendingPathComponent("manifest/images").path
        let manifest: [String: Any] = [
            "landmarks": landmarks.map { ["id": $0.id, "name": $0.id.capitalized, "keywords": $0.keywords, "images": ["\(images)/\($0.image)"]] },
            "collections": collections.map { ["id": $0.id, "name": $0.id.capitalized, "landmarks": $0.members] },
        ]
        let path = folder.appendingPathComponent("catalog.json").path
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Fingerprints each fixture image with the synthetic fingerprint named by its file name.
struct FileNameFingerprinter: ImageFingerprinting {
    var seeds: [String: UInt64]
    func fingerprint(imageData data: Data, path: String) throws -> Fingerprint {
        SearchFixtures.fingerprint(seed: seeds[URL(fileURLWithPath: path).lastPathComponent] ?? 0)
    }
}

/// The standard search fixture: eiffel (keywords tower, paris), colosseum (amphitheatre),
/// great-wall; collections europe = [eiffel, colosseum], towers = [eiffel], asia = [great-wall].
struct SearchCatalog {
    static let seeds: [String: UInt64] = ["eiffel.jpg": 1, "colosseum.png": 2, "great-wall.jpg": 3]
    let store: SQLiteEntityStore
    let query: VisualSearchQuery

    init(
        extraLandmarks: [(id: String, image: String, keywords: [String])] = [],
        collections: [(id: String, members: [String])] = [("europe", ["eiffel", "colosseum"]), ("towers", ["eiffel"]), ("asia", ["great-wall"])]
    ) async throws {
        let manifest = try SearchFixtures.catalog(
            [("eiffel", "eiffel.jpg", ["tower", "Paris"]), ("colosseum", "colosseum.png", ["amphitheatre"]), ("great-wall", "great-wall.jpg", ["wall"])] + extraLandmarks,
            collections: collections)
        store = try SQLiteEntityStore()
        _ = try await CatalogIndexer(store: store, fingerprinter: FileNameFingerprinter(seeds: Self.seeds)).index(ManifestCatalogSource(manifestPath: manifest))
        query = VisualSearchQuery(store: store) { _ in SearchFixtures.fingerprint(seed: 1) }
    }

    func fingerprint(of image: String) -> Fingerprint {
        SearchFixtures.fingerprint(seed: Self.seeds[image] ?? 0)
    }
}
