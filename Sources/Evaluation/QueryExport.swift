import Foundation
import PixelBuffers

extension EvaluationRunner {
    /// Writes the evaluation's queries as lossless PNG files, so other tools can be
    /// measured on exactly the same pixels: `<folder>/<transformation>/<landmark id>.png`
    /// for every catalog image (the id is its relative path without extension, so it may
    /// contain `/`). Cost: decoding and transforming every image once per transformation.
    ///
    /// - Returns: the number of files written.
    /// - Throws: ``EvaluationError`` naming the folder or image that failed.
    @discardableResult
    public func exportQueries(catalogFolder: String, to folder: String) throws(EvaluationError) -> Int {
        var written = 0
        for relative in try ImageFolder.images(in: catalogFolder) {
            let path = (catalogFolder as NSString).appendingPathComponent(relative)
            let pixels: PixelBuffer
            do {
                pixels = try ImageDecoder().decode(file: path, options: DecodeOptions(alwaysRGBA: true)).pixels
            } catch {
                throw .decodeFailed(path, reason: error.description)
            }
            let seed = Self.seed(for: relative)
            for transformation in transformations {
                let query = try transformation.apply(to: pixels, seed: seed, name: path)
                let target = ((folder as NSString).appendingPathComponent(transformation.rawValue) as NSString)
                    .appendingPathComponent(ImageFolder.landmarkID(for: relative) + ".png")
                do {
                    let bytes = try PNGEncoder().encode(query)
                    try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                            withIntermediateDirectories: true)
                    try Data(bytes).write(to: URL(fileURLWithPath: target))
                } catch {
                    throw .writeFailed(target, reason: "\(error)")
                }
                written += 1
            }
        }
        return written
    }
}
