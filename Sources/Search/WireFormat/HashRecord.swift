/// One line of `glimpse hash --format json`: every hash of one image's full frame, in the
/// text forms `POST /v1/search/fingerprint` takes (golden file `testdata/wire/hash.json`).
public struct HashRecord: Sendable, Hashable, Codable {
    /// The file as given (non-UTF-8 bytes escaped).
    public var path: String
    /// Decoded width and height, in pixels.
    public var width: Int, height: Int
    /// PDQ quality, 0…100.
    public var quality: Int
    /// Whether the frame carries enough detail to be searched.
    public var informative: Bool
    /// PDQ (64 hex digits), aHash, dHash, pHash (16 hex digits each).
    public var pdq: String, ahash: String, dhash: String, phash: String
    /// The colour histogram's bins.
    public var histogram: [Int]
    /// The PDQ of each of the eight orientations, by name.
    public var dihedral: [String: String]

    /// A record of these fields.
    public init(path: String, width: Int, height: Int, quality: Int, informative: Bool, pdq: String, ahash: String, dhash: String,
                phash: String, histogram: [Int], dihedral: [String: String]) {
        self.path = path
        self.width = width
        self.height = height
        self.quality = quality
        self.informative = informative
        self.pdq = pdq
        self.ahash = ahash
        self.dhash = dhash
        self.phash = phash
        self.histogram = histogram
        self.dihedral = dihedral
    }
}
