import ArgumentParser
import Catalog
import Fingerprints
import Foundation
import Search
import SyntheticData

/// `glimpse debug-synthesize-catalog`: writes a large, seeded synthetic catalog
/// (``SyntheticCatalog``) through the store's normal index-write path, for load tests and
/// start-up measurements. Hidden from `--help`: a measurement tool, not a user command.
struct SynthesizeCatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-synthesize-catalog",
        abstract: "Write a seeded synthetic catalog of N landmarks for load tests (debug tool).",
        discussion: """
            Adds N synthetic landmarks (ids synthetic/L00000000…, one reference image each \
            whose path does not exist) with random but seeded fingerprints of the catalog \
            layout's view count (31), spread over K collections, to the catalog at --db \
            (created if missing). Landmarks already in the catalog that are not synthetic \
            (for example a real catalog indexed first with 'glimpse index') are kept, so \
            real queries still find real matches; synthetic landmarks of an earlier run are \
            replaced (soft-deleted as one undoable removal when N shrinks). Everything is \
            written in the store's indexing transactions, like 'glimpse index', and the \
            visual-index snapshot beside the catalog (PATH.vindex) is rewritten.

            1,000,000 views = --landmarks 32259 (× 31 views).

            Example:
              glimpse index testdata/catalog/manifest.json --db /tmp/big.sqlite
              glimpse debug-synthesize-catalog --db /tmp/big.sqlite --landmarks 32259 --collections 100

            Prints one summary line; exit 1 on a usage or store error.
            """,
        shouldDisplay: false
    )

    @OptionGroup var database: DatabaseOption

    @OptionGroup var snapshotOption: SnapshotOption

    @Option(help: "Number of synthetic landmarks (one fingerprinted image each).")
    var landmarks: Int

    @Option(help: "Views per fingerprint (1…255; the catalog layout has 31).")
    var viewsPerLandmark: Int = FingerprintViewLayout.catalog.viewCount

    @Option(help: "Number of synthetic collections the landmarks are spread over.")
    var collections: Int = 0

    @Option(help: "Seed: the same seed and sizes give the same catalog.")
    var seed: UInt64 = 1

    func validate() throws {
        guard landmarks >= 0 else { throw ValidationError("--landmarks must be 0 or more") }
        guard (1...255).contains(viewsPerLandmark) else { throw ValidationError("--views-per-landmark must be in 1…255") }
        guard collections >= 0 else { throw ValidationError("--collections must be 0 or more") }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let store = try await database.openOrCreate()
        let synthetic = SyntheticCatalog(landmarks: landmarks, viewsPerLandmark: viewsPerLandmark, collections: collections, seed: seed)
        var content = synthetic.content()
        let generated = ContinuousClock.now
        // Keep the real (non-synthetic) entities; their images keep their stored fingerprints.
        do {
            let kept = try await store.content(excludingIDPrefix: SyntheticCatalog.idPrefix)
            content = CatalogContent(landmarks: kept.landmarks + content.landmarks, collections: kept.collections + content.collections)
        } catch {
            throw failure(error.description)
        }
        let progress = ProgressDisplay(command: "debug-synthesize-catalog", unit: "entities")
        let report: IndexReport
        do {
            report = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog)
                .index(precomputed: content, sourceDescription: "synthetic (seed \(seed))") { progress.update($0) }
        } catch {
            progress.finishLine()
            throw failure(error.description)
        }
        progress.finishLine()
        let written = ContinuousClock.now
        let snapshot: VisualIndexSnapshot.RefreshAction
        do { snapshot = try await VisualIndexSnapshot.rewrite(store: store, path: snapshotOption.path(for: database), replacing: snapshotOption.replacement) } catch { throw failure(error.description) }
        let finished = ContinuousClock.now
        print(String(
            format: "Synthesized %d landmarks × %d views (%d views, %d collections, seed %llu) into %@ at generation %lld: "
                + "generated in %.1f s, written in %.1f s, %@ in %.1f s.",
            landmarks, viewsPerLandmark, synthetic.viewCount, collections, seed, database.path, report.version.generation,
            ProgressDisplay.seconds(generated - started), ProgressDisplay.seconds(written - generated), snapshot.description,
            ProgressDisplay.seconds(finished - written)))
    }
}
