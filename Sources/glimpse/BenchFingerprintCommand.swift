import ArgumentParser
import Fingerprints
import Foundation
import PixelBuffers
import Search

/// `glimpse bench-fingerprint`: times reading + decoding + fingerprinting one image file
/// in-process, for `benchmarks/compare-peers.sh` (no process start-up in the figure).
/// Hidden from `--help`: a measurement tool, not a user command.
struct BenchFingerprintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-fingerprint",
        abstract: "Time decode + full fingerprint of one image file (benchmark tool).",
        discussion: """
            Each run reads the file, decodes it exactly as `glimpse index` (catalog layout) or \
            `glimpse query` (query layout) does — JPEGs at the smallest DCT scale whose short side \
            is at least ImageFingerprinter.decodeShortSide pixels (smaller for small images with the \
            query layout, querySmallImageSides, which --decode-only follows too) unless --min-side says otherwise, \
            PNGs at full size — and computes every view and every code of the layout, with the \
            rows going from the decoder straight into the working image (ImageFingerprinter). Prints one JSON line (FingerprintTimingRecord): {"file", "median_ms", \
            "best_ms", "runs", "scale", "decoded_width", "decoded_height", "views", "decode_only", "isa"}.
            """,
        shouldDisplay: false
    )

    @Argument(help: "The PNG, JPEG, WebP, HEIF or AVIF file.")
    var image: String

    @Option(name: .customLong("repeat"), help: "Timed runs, after one warm-up run.")
    var runs: Int = 20

    @Option(help: "Smallest short side, in pixels, the decode must deliver (picks the DCT scale; default: what indexing and queries use).")
    var minSide: Int?

    @Flag(help: "Time the decode alone (same options), without fingerprinting.")
    var decodeOnly = false

    @Option(help: "The view layout fingerprinted: catalog (31 views, what indexing computes), query (50 views: 24 oriented, 1 with a vignette undone, 25 tilted) or query-without-tilts (the first 25 of them).")
    var layout: String = "catalog"

    func run() async throws {
        guard runs > 0, (minSide ?? 1) > 0 else {
            throw failure("bench-fingerprint: --repeat and --min-side must be positive")
        }
        let views: FingerprintViewLayout
        switch layout {
        case "catalog": views = .catalog
        case "query": views = .query
        case "query-without-tilts": views = FingerprintViewLayout.query.withoutTilts
        default: throw failure("bench-fingerprint: --layout must be catalog, query or query-without-tilts")
        }
        let decoder = ImageDecoder()
        let fingerprinter = ImageFingerprinter(layout: views, decoder: decoder, minimumShortSide: minSide)
        let options = fingerprinter.decodeOptions()
        var last: DecodedImage
        var viewCount = 0
        do {
            last = try decoder.decode(file: image, options: options)
        } catch {
            throw failure("\(error)")
        }
        let fingerprintOnce = decodeOnly
            ? { () throws(DecodeError) in last = try decoder.decode(file: image, options: options) }
            : { () throws(DecodeError) in
                // Rows go straight from the decoder into the working image (a whole PNG or JPEG is never stored).
                viewCount = try fingerprinter.fingerprint(file: image).views.count
            }
        let timing: RunTiming
        do {
            timing = try RunTimer.measure(runs: runs) { try fingerprintOnce() }
        } catch {
            throw failure("\(error)")
        }
        print(WireJSON.line(FingerprintTimingRecord(
            file: image, medianMilliseconds: timing.medianMs, bestMilliseconds: timing.bestMs, runs: timing.runs, scale: "\(last.scale)",
            decodedWidth: last.pixels.width, decodedHeight: last.pixels.height, views: viewCount, decodeOnly: decodeOnly,
            isa: "\(InstructionSet.best)")))
    }
}
