import ArgumentParser
import Catalog
import Evaluation
import Fingerprints
import Foundation
import Matching
import PixelBuffers
import Search

/// `glimpse debug-crop-catalog`: writes a catalog of N distinct crops of real photographs
/// (``CropCatalog``), fingerprinted in memory and written in batches, for the scale
/// benchmark (`benchmarks/scale.sh`). Hidden from `--help`: a measurement tool.
struct CropCatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "debug-crop-catalog",
        abstract: "Write a catalog of N crops of the photos in a folder (scale benchmark tool).",
        discussion: """
            Every image under FOLDER (sorted) is decoded once, JPEGs at the smallest DCT scale \
            keeping --decode-side pixels on the short side, and gives count/photos crops \
            (12–100 % of its area, aspect 0.6–1.67 times its own, anywhere in it, seeded), each \
            fingerprinted in memory with the catalog layout and added as landmark \
            crops/PPPPP/CCCCC; no image file is written. Fingerprints are saved a batch at a \
            time and the catalog committed in one transaction, so memory holds one batch's \
            fingerprints, not the catalog's. Landmarks already in the catalog that are not \
            crops (the evaluation catalog indexed first with 'glimpse index') are kept; crops of \
            an earlier run are replaced. The visual-index snapshot (beside an SQLite catalog, or \
            --snapshot) is rewritten (streamed). A photo that cannot be decoded is reported and skipped.

            Example:
              glimpse index testdata/catalog/manifest.json --db /tmp/scale.sqlite
              glimpse debug-crop-catalog ~/photos --count 1000000 --db /tmp/scale.sqlite

            Prints one summary line; exit 1 on a usage or store error.
            """,
        shouldDisplay: false
    )

    @Argument(help: ArgumentHelp("The folder of source photographs.", valueName: "folder"))
    var folder: String

    @Option(help: "Number of crops in all.")
    var count: Int

    @OptionGroup var database: DatabaseOption

    @OptionGroup var snapshot: SnapshotOption

    @OptionGroup var firstStage: FirstStageOption

    @Option(help: "Seed of the crop geometry: the same photos, count and seed give the same catalog.")
    var seed: UInt64 = 1

    @Option(help: "Short side, in pixels, JPEG photos are decoded at (DCT scaling; at least 64).")
    var decodeSide: Int = 512

    @Option(name: .customLong("jobs"), help: "Photos cropped and fingerprinted at once (default: every core).")
    var jobsOption: Int?

    /// `--jobs`, or every core.
    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        guard count >= 0 else { throw ValidationError("--count must be 0 or more") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard decodeSide >= 64 else { throw ValidationError("--decode-side must be at least 64") }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let photos: [String]
        do { photos = try PhotoFolder(scanning: folder).photos } catch { throw failure(error.description) }
        guard !photos.isEmpty || count == 0 else { throw failure("\(folder): no photos to crop") }
        let crops = CropCatalog(photos: photos, count: count, seed: seed, decodeShortSide: decodeSide)
        let store = try await database.openOrCreate()
        // Keep what is not a crop; its images keep their stored fingerprints.
        let kept: CatalogContent
        do { kept = try await store.content(excludingIDPrefix: CropCatalog.idPrefix) } catch { throw failure(error.description) }
        let progress = ProgressDisplay(command: "debug-crop-catalog", unit: "photos")
        let jobs = jobs
        var nextPhoto = 0, cropped = 0, skipped: [String] = []
        var handedKept = false
        var fingerprinted = ContinuousClock.now
        let report: IndexReport
        do {
            report = try await CatalogIndexer(store: store, fingerprinter: ImageFingerprinter.catalog).index(
                precomputedBatches: {
                    if !handedKept {
                        handedKept = true
                        return kept.landmarks
                    }
                    guard nextPhoto < photos.count else {
                        fingerprinted = ContinuousClock.now
                        return nil
                    }
                    // The next `jobs` photos at once, handed on in photo order.
                    let first = nextPhoto, end = min(photos.count, nextPhoto + jobs)
                    nextPhoto = end
                    let results = await withTaskGroup(of: (Int, Result<[LandmarkEntity], DecodeError>).self) { group in
                        for p in first..<end {
                            group.addTask { (p, Result { () throws(DecodeError) -> [LandmarkEntity] in try crops.landmarks(ofPhoto: p) }) }
                        }
                        var results: [(Int, Result<[LandmarkEntity], DecodeError>)] = []
                        for await result in group { results.append(result) }
                        return results.sorted { $0.0 < $1.0 }
                    }
                    var batch: [LandmarkEntity] = []
                    for (_, result) in results {
                        switch result {
                        case .success(let landmarks): batch += landmarks
                        case .failure(let error): skipped.append(error.description)
                        }
                    }
                    cropped += batch.count
                    progress.update(stage: "cropping", unit: "photos", completed: end, total: photos.count, detail: "\(cropped) crops")
                    return batch
                },
                collections: kept.collections, sourceDescription: "crops of \(folder) (seed \(seed))") { progress.update($0) }
        } catch {
            progress.finishLine()
            throw failure(error.description)
        }
        progress.finishLine()
        for reason in skipped { printError("glimpse: skipped: \(reason)") }
        let written = ContinuousClock.now
        let refreshed: VisualIndexSnapshot.RefreshAction
        do { refreshed = try await VisualIndexSnapshot.rewrite(store: store, path: snapshot.path(for: database), replacing: snapshot.replacement) } catch { throw failure(error.description) }
        let finished = ContinuousClock.now
        let staged = try await firstStage.refresh(store: store, snapshotPath: snapshot.path(for: database))
        let stagedAt = ContinuousClock.now
        print(String(
            format: "Cropped %d images from %d photos (%d skipped, seed %llu) into %@ at generation %lld: "
                + "fingerprinted in %.1f s, written in %.1f s, %@ in %.1f s, %@ in %.1f s.",
            cropped, photos.count - skipped.count, skipped.count, seed, database.path, report.version.generation,
            ProgressDisplay.seconds(fingerprinted - started), ProgressDisplay.seconds(written - fingerprinted),
            refreshed.description, ProgressDisplay.seconds(finished - written), staged.description,
            ProgressDisplay.seconds(stagedAt - finished)))
    }
}
