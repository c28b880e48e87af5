import Foundation

/// Source folders whose every image is new content to a catalog, so that an index run
/// takes long enough (seconds) to be interrupted or watched by the PostgreSQL tests.
public enum DistinctImageCopies {
    /// Writes `variants` copies of every `.jpg` in each folder of `sources` into
    /// `destination`, named `<source folder name>-<variant>-<file name>`; each copy has one
    /// byte appended after the JPEG's end (the same picture, a new content hash). Returns the
    /// number of copies written.
    /// - Complexity: O(total bytes × `variants`) of file reads and writes.
    public static func write(from sources: [String], to destination: String, variants: Int) throws -> Int {
        var copies = 0
        for source in sources {
            let prefix = URL(fileURLWithPath: source).lastPathComponent
            for name in try FileManager.default.contentsOfDirectory(atPath: source).sorted() where name.hasSuffix(".jpg") {
                var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(source)/\(name)"))
                for variant in 0..<variants {
                    bytes.append(UInt8(truncatingIfNeeded: variant))
                    try bytes.write(to: URL(fileURLWithPath: "\(destination)/\(prefix)-\(variant)-\(name)"))
                    copies += 1
                }
            }
        }
        return copies
    }
}
