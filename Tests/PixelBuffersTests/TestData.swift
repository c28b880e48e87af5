import PixelBuffers

/// Locates the project's `testdata/` folder from this file's path and reads the
/// reference tables stored there.
enum TestData {
    /// Absolute path of `testdata/`.
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/PixelBuffersTests/TestData.swift
        return parts.joined(separator: "/") + "/testdata"
    }()

    /// Path of a file below `testdata/`.
    static func path(_ relative: String) -> String { root + "/" + relative }

    /// One row of an `expected/index.tsv` table, keyed by column name.
    struct Row: Sendable, CustomStringConvertible {
        let fields: [String: String]
        subscript(_ key: String) -> String { fields[key] ?? "" }
        var file: String { self["file"] }
        var isOK: Bool { self["status"] == "ok" }
        var description: String { file }
    }

    /// Rows of `testdata/<folder>/expected/index.tsv`, or of the JPEG table filtered to a
    /// name prefix.
    static func rows(_ table: String, where keep: (Row) -> Bool = { _ in true }) -> [Row] {
        guard let bytes = try? readFile(path(table)) else { return [] }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        guard let header = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) else { return [] }
        return lines.dropFirst().map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(fields: Dictionary(uniqueKeysWithValues: zip(header, cells)))
        }.filter(keep)
    }

    static let pngRows = rows("pngsuite/expected/index.tsv")
    static let jpegRows = rows("jpeg/expected/index.tsv")

    /// Whole file bytes, through the library's own reader path (via a decoder-free read).
    static func readFile(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw TestDataError.missing(path) }
        defer { fclose(file) }
        var out = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    enum TestDataError: Error { case missing(String) }

    /// Where a JPEG from the index lives (the table covers `jpeg/` and `exif-orientation/`).
    static func jpegPath(_ file: String) -> String {
        file.hasPrefix("Landscape_") || file.hasPrefix("Portrait_") ? path("exif-orientation/" + file) : path("jpeg/" + file)
    }
}

#if canImport(Glibc)
import Glibc
#endif

extension PixelBuffer {
    /// Packed pixels with alpha dropped (RGBA8 → RGB8) or as they are (Gray8), the
    /// layout `djpeg -ppm` writes.
    func djpegBytes() -> [UInt8] {
        let packed = packedBytes()
        guard format == .rgba8 else { return packed }
        let n = pixelCount
        return [UInt8](unsafeUninitializedCapacity: n * 3) { out, count in
            packed.withUnsafeBufferPointer { src in
                for i in 0..<n {
                    out[i * 3] = src[i * 4]; out[i * 3 + 1] = src[i * 4 + 1]; out[i * 3 + 2] = src[i * 4 + 2]
                }
            }
            count = n * 3
        }
    }
}
