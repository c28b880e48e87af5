import ArgumentParser
import Fingerprints
import Foundation
import PixelBuffers
import Search

/// `glimpse hash`: prints perceptual hashes of image files, one row per file, the way
/// PDQ's `pdq-photo-hasher` does, so Glimpse's codes can be compared with other tools.
struct HashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash",
        abstract: "Print perceptual hashes of image files (PDQ-compatible by default).",
        discussion: """
            CSV (default): one row `hex,quality,path` per file, as PDQ's pdq-photo-hasher prints; \
            the path is quoted as RFC 4180 says when it holds a comma, quote or line break. \
            quality is PDQ's 0-100 quality of the whole image (below 50: too flat to trust). \
            pdq is 64 hex digits; ahash, dhash and phash 16; histogram 128 (64 bins of one byte, \
            bin 0 first).
            JSON: one object per line with every field: path, width, height, quality, \
            informative (the full-frame view is not blank, see FingerprintView.isInformative), pdq, ahash, dhash, phash, histogram (array of 64 bins) and the eight \
            PDQ dihedral hashes.
            PDQ hashes the decoded pixels at full resolution exactly as Meta's reference does; \
            the other hashes use Glimpse's full-frame fingerprint (area-averaged to 512 px).
            A file that cannot be decoded gets one line on stderr; the others are still hashed.
            The pdq hex is what POST /v1/search/fingerprint takes as "pdq".

            Example:
              glimpse hash testdata/samples/screenshot-hurricane-ridge.png
              glimpse hash --format json testdata/catalog/food/*.jpg

            Exit codes: 0 every file hashed; 1 usage error, or every file failed (as query and \
            inspect); 2 some files failed, the others were hashed.
            """
    )

    /// Which code to print in CSV.
    enum Algorithm: String, ExpressibleByArgument, CaseIterable {
        case ahash, dhash, phash, pdq, histogram
    }

    /// Output format.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, json
    }

    @Argument(help: "PNG, JPEG, WebP, HEIF (HEIC) or AVIF files to hash.")
    var images: [String]

    @Option(help: "Hash to print in CSV: \(Algorithm.allCases.map(\.rawValue).joined(separator: ", ")).")
    var algorithm: Algorithm = .pdq

    @Option(help: "Output format: csv (hex,quality,path) or json (one object per line, every field).")
    var format: Format = .csv

    func validate() throws {
        if images.isEmpty { throw ValidationError("give at least one image file") }
    }

    func run() async throws {
        let decoder = ImageDecoder()
        // Full resolution (PDQ as the reference computes it); the other codes through the one
        // fingerprinting type, full frame only.
        let fingerprinter = ImageFingerprinter(layout: .fullFrame)
        var failed = 0
        for path in images {
            let decoded: DecodedImage
            do {
                decoded = try decoder.decode(file: path)
            } catch {
                printError("glimpse: \(error)")
                failed += 1
                continue
            }
            let pixels = decoded.pixels
            let pdq = PDQHasher().hash(pixels)
            guard let view = fingerprinter.fingerprint(of: pixels).full else {
                printError("glimpse: \(path): no full-frame view")
                failed += 1
                continue
            }
            switch format {
            case .csv:
                print("\(hex(algorithm, pdq: pdq.hash, view: view)),\(pdq.quality),\(CSVText.field(Self.rowName(path)))")
            case .json:
                print(json(path: path, pixels: pixels, pdq: pdq, view: view))
            }
        }
        // As query and inspect: every file failed → input error; some → some files failed.
        if failed == images.count { throw ExitCode(ExitStatus.inputError.rawValue) }
        if failed > 0 { throw ExitCode(ExitStatus.someFilesFailed.rawValue) }
    }

    /// A path as written in a row: bytes of a name that are not UTF-8 as `\xHH` (control
    /// characters are left to CSV quoting and JSON escaping).
    static func rowName(_ path: String) -> String {
        FileSystemPath.displayName(path, escapingControlCharacters: false)
    }

    func hex(_ algorithm: Algorithm, pdq: PDQHash, view: FingerprintView) -> String {
        switch algorithm {
        case .pdq: pdq.hex
        case .ahash: hex64(view.aHash)
        case .dhash: hex64(view.dHash)
        case .phash: hex64(view.pHash)
        case .histogram: view.histogram.bins.map { byteHex($0) }.joined()
        }
    }

    func hex64(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    func byteHex(_ b: UInt8) -> String {
        b < 16 ? "0" + String(b, radix: 16) : String(b, radix: 16)
    }

    func json(path: String, pixels: PixelBuffer, pdq: PDQHasher.Result, view: FingerprintView) -> String {
        WireJSON.line(HashRecord(
            path: Self.rowName(path), width: pixels.width, height: pixels.height, quality: pdq.quality, informative: view.isInformative,
            pdq: pdq.hash.hex, ahash: hex64(view.aHash), dhash: hex64(view.dHash), phash: hex64(view.pHash),
            histogram: view.histogram.bins.map { Int($0) },
            dihedral: Dictionary(uniqueKeysWithValues: Dihedral.allCases.map { ($0.rawValue, pdq.hash(for: $0).hex) })))
    }
}
