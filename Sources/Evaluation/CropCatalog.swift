import Catalog
import Foundation
import Fingerprints
import PixelBuffers
import SyntheticData

/// A catalog of real-looking distractors for scale benchmarks: `count` distinct images, each
/// a crop of a real photograph at its own scale, aspect and position, fingerprinted in memory
/// with the catalog layout and never written to disk as an image. Real fingerprints cluster
/// (crops of one photo share structure, photos share colours and textures) where synthetic
/// random codes do not, so this is what an approximate index must be measured on.
///
/// Photo `p` (in the order given: sort them) gets `count / photos` crops, the first
/// `count % photos` photos one more. Each crop keeps 12 %…100 % of the photo's area
/// (log-uniform), an aspect 0.6…1.67 times the photo's, at a uniform position, and at least
/// ``minimumSide`` pixels per side of the decoded photo; the photo is decoded once, JPEGs at
/// the smallest DCT scale keeping ``decodeShortSide`` pixels on the short side, then reduced to
/// at most ``maximumLongSide`` pixels on the long side. Landmark ids
/// are `crops/PPPPP/CCCCC` (photo and crop numbers), so id order is generation order; the
/// reference image's path is the photo's with `#crop=x,y,w,h` (decoded pixels) appended, a
/// path that does not exist. A photo under ``minimumSide`` pixels on a side gives no crop (the
/// catalog then holds fewer than `count`). The same photos, count and seed give the same catalog.
public struct CropCatalog: Sendable {
    /// Prefix of every landmark id (`crops/`).
    public static let idPrefix = "crops/"
    /// Smallest crop side, in decoded pixels.
    public static let minimumSide = 64

    /// Longest side, in pixels, of a photo once decoded: larger ones (PNGs, which have no
    /// DCT scaling) are reduced by area averaging first, so a crop costs what a photo of a
    /// few hundred thousand pixels costs, as the catalog's own decode size makes it.
    public static let maximumLongSide = 1024

    /// The source photographs.
    public var photos: [String]
    /// Number of crops in all.
    public var count: Int
    /// Seed of the crop geometry.
    public var seed: UInt64
    /// Short side, in pixels, JPEGs are decoded at (at least; DCT scaling).
    public var decodeShortSide: Int

    /// Describes a crop catalog; nothing is decoded yet.
    public init(photos: [String], count: Int, seed: UInt64 = 1, decodeShortSide: Int = 512) {
        self.photos = photos
        self.count = max(0, count)
        self.seed = seed
        self.decodeShortSide = max(Self.minimumSide, decodeShortSide)
    }

    /// How many crops photo `p` gets. O(1).
    public func cropCount(ofPhoto p: Int) -> Int {
        guard !photos.isEmpty, photos.indices.contains(p) else { return 0 }
        return count / photos.count + (p < count % photos.count ? 1 : 0)
    }

    /// The landmark id of crop `c` of photo `p`. O(1).
    public static func landmarkID(photo p: Int, crop c: Int) -> String {
        func padded(_ n: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, 5 - digits.count)) + digits
        }
        return idPrefix + padded(p) + "/" + padded(c)
    }

    /// The crop windows of photo `p` decoded at `width` × `height`. O(crops).
    public func windows(ofPhoto p: Int, width: Int, height: Int) -> [PixelRect] {
        let n = cropCount(ofPhoto: p)
        guard n > 0, width >= Self.minimumSide, height >= Self.minimumSide else { return [] }
        var generator = SeededGenerator(seed: seed ^ (UInt64(p) &* 0x9E37_79B9_7F4A_7C15))
        func uniform() -> Double { Double(generator.next() >> 11) / Double(1 << 53) }
        let minimumArea = 0.12
        return (0..<n).map { _ in
            let area = minimumArea * pow(1 / minimumArea, uniform()) * Double(width * height)
            let aspect = 0.6 * pow(1.67 / 0.6, uniform()) * Double(width) / Double(height)
            let w = min(width, max(Self.minimumSide, Int((area * aspect).squareRoot())))
            let h = min(height, max(Self.minimumSide, Int((area / aspect).squareRoot())))
            let x = Int(uniform() * Double(width - w + 1)), y = Int(uniform() * Double(height - h + 1))
            return PixelRect(x: min(x, width - w), y: min(y, height - h), width: w, height: h)
        }
    }

    /// `pixels` reduced by area averaging so that its long side is at most `longSide`, or as it is. O(pixels).
    static func bounded(_ pixels: PixelBuffer, longSide: Int) -> PixelBuffer {
        let long = max(pixels.width, pixels.height)
        guard long > longSide else { return pixels }
        let width = max(1, pixels.width * longSide / long), height = max(1, pixels.height * longSide / long)
        return Resampling.areaAverage(RGBAImage(pixels), width: width, height: height).pixelBuffer
    }

    /// Decodes photo `p` once and fingerprints each of its crops with `fingerprinter` (the
    /// catalog layout), as landmarks with one reference image each.
    ///
    /// - Complexity: one decode plus O(crops × catalog fingerprint).
    /// - Throws: ``DecodeError`` when the photo cannot be decoded (the caller skips it).
    public func landmarks(ofPhoto p: Int, fingerprinter: ImageFingerprinter = .catalog) throws(DecodeError) -> [LandmarkEntity] {
        guard cropCount(ofPhoto: p) > 0 else { return [] }
        let path = photos[p]
        let decoded = try ImageDecoder().decode(file: path, options: DecodeOptions(minimumShortSide: decodeShortSide))
        let pixels = Self.bounded(decoded.pixels, longSide: Self.maximumLongSide)
        var landmarks: [LandmarkEntity] = []
        for (c, window) in windows(ofPhoto: p, width: pixels.width, height: pixels.height).enumerated() {
            let crop: PixelBuffer
            do { crop = try pixels.region(window) } catch { continue }  // windows are inside the photo
            let id = Self.landmarkID(photo: p, crop: c)
            landmarks.append(LandmarkEntity(
                id: id, name: "Crop \(c) of \(FileSystemPath.displayName(path))", continent: nil,
                description: "A distractor for scale benchmarks.", keywords: ["crop"],
                referenceImages: [ReferenceImage(path: path + "#crop=\(window.x),\(window.y),\(window.width),\(window.height)",
                                                 fingerprint: fingerprinter.fingerprint(of: crop))]))
        }
        return landmarks
    }
}
