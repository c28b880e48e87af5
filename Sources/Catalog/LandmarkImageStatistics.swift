import Foundation
import Fingerprints

/// Statistics about a landmark's reference images, computed only when asked for (the
/// equivalent of an App Intents `@DeferredProperty`): it reads the file system and walks
/// every fingerprint view, so it is never stored and never computed by queries.
public struct LandmarkImageStatistics: Sendable, Hashable {
    /// Statistics of one reference image.
    public struct Image: Sendable, Hashable {
        /// The image file.
        public var path: String
        /// Its size on disk in bytes, or `nil` when the file is gone or unreadable.
        public var fileSize: Int64?
        /// Number of fingerprint views (0 when not indexed).
        public var viewCount: Int
        /// Views informative enough to be searched (quality ≥ ``PDQHash/minimumUsefulQuality``).
        public var informativeViewCount: Int
        /// Mean PDQ quality over the views, 0…100 (0 when not indexed).
        public var meanQuality: Double
        /// The three fullest colour-histogram bins of the full-frame view, fullest first
        /// (ties by bin index); empty when not indexed.
        public var dominantColorBins: [Int]
    }

    /// One entry per reference image, in catalog order.
    public var images: [Image]

    /// Whether at least one view of one image can be matched by a visual search.
    public var isSearchable: Bool { images.contains { $0.informativeViewCount > 0 } }
}

extension LandmarkEntity {
    /// Statistics about the reference images, computed now (file-system access and a walk
    /// over every view): deferred, never stored. O(images × views) plus one `stat` per image.
    public var imageStatistics: LandmarkImageStatistics {
        get async {
            LandmarkImageStatistics(images: referenceImages.map { image in
                let size = (try? FileManager.default.attributesOfItem(atPath: image.path)[.size] as? NSNumber)?.int64Value
                let views = image.fingerprint?.views ?? []
                let informative = views.filter { $0.quality >= PDQHash.minimumUsefulQuality }.count
                let mean = views.isEmpty ? 0 : Double(views.reduce(0) { $0 + $1.quality }) / Double(views.count)
                var dominant: [Int] = []
                if let bins = views.first?.histogram.bins {
                    dominant = bins.indices.sorted { (bins[$0], $1) > (bins[$1], $0) }.prefix(3).map { $0 }
                }
                return .init(path: image.path, fileSize: size, viewCount: views.count, informativeViewCount: informative,
                             meanQuality: mean, dominantColorBins: dominant)
            })
        }
    }
}
