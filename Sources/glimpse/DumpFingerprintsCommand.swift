import ArgumentParser
import Fingerprints
import Foundation
import PixelBuffers

/// `glimpse debug-dump-fingerprints`: prints every byte of the catalog and query
/// fingerprints of image files, computed along each route the library offers, so that two
/// builds (or two instruction sets, `GLIMPSE_ISA=avx2|portable`) can be proved
/// bit-identical with `diff`. Hidden from `--help`: a verification tool, not a user command.
struct DumpFingerprintsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-dump-fingerprints",
        abstract: "Print the serialized catalog and query fingerprints of image files (debug tool).",
        discussion: """
            One line per file and route: `path<TAB>route<TAB>hex`, hex being Fingerprint.serialized() \
            (every view's region, aHash, dHash, pHash, PDQ hash, quality and histogram). Routes: \
            catalog-file and query-file (ImageFingerprinter.catalog / .query on the file, rows \
            streamed from the decoder), catalog-pixels and query-pixels (the same decode, then \
            fingerprint(of:) on the decoded buffer), catalog-full (the file decoded at full size, \
            then Fingerprinter's catalog layout: the 512-pixel working image). A file that cannot \
            be decoded prints `path<TAB>error<TAB>message`.
            """,
        shouldDisplay: false
    )

    @Argument(help: "Image files.")
    var images: [String]

    func run() async throws {
        let decoder = ImageDecoder()
        let catalog = ImageFingerprinter.catalog, query = ImageFingerprinter.query
        func hex(_ f: Fingerprint) -> String {
            f.serialized().map { String(format: "%02x", $0) }.joined()
        }
        for path in images {
            do {
                let scaled = try decoder.decode(file: path, options: catalog.decodeOptions()).pixels
                let full = try decoder.decode(file: path).pixels
                print("\(path)\tcatalog-file\t\(hex(try catalog.fingerprint(file: path)))")
                print("\(path)\tquery-file\t\(hex(try query.fingerprint(file: path)))")
                print("\(path)\tcatalog-pixels\t\(hex(catalog.fingerprint(of: scaled)))")
                print("\(path)\tquery-pixels\t\(hex(query.fingerprint(of: scaled)))")
                print("\(path)\tcatalog-full\t\(hex(Fingerprinter().fingerprint(of: full)))")
            } catch {
                print("\(path)\terror\t\(error)")
            }
        }
    }
}
