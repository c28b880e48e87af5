import Catalog
import Fingerprints
import Foundation
import SQLiteStore
import PixelBuffers
import Search

extension EvaluationRunner {
    /// Evaluates Glimpse's own search on a catalog folder: indexes it (as a folder catalog)
    /// into a temporary SQLite store with ``CatalogIndexer``, then queries every transformed
    /// image through ``VisualSearchQuery/values(for:page:)`` — the query API users call,
    /// no-match threshold included — for the ranking, and through
    /// ``VisualSearchQuery/landmarkMatches(for:minimumScore:limit:)`` (no threshold) for
    /// the best raw match that calibrates the operating point. The store is deleted after.
    ///
    /// Cost: indexing the catalog once, then two searches per query (catalog × transformations
    /// + negatives × (transformations + 1)).
    ///
    /// Indexing and queries go through ``ImageFingerprinter``, the one fingerprinting type
    /// `glimpse index` and `glimpse query` use: `catalog` for the catalog files, `query`
    /// for the transformed query pixels.
    ///
    /// - Parameters:
    ///   - configuration: ranking constants, including the no-match threshold under test.
    ///   - catalog: fingerprints catalog files (default ``ImageFingerprinter/catalog``).
    ///   - query: fingerprints query pixels (default ``ImageFingerprinter/query``).
    /// - Throws: ``EvaluationError``: unreadable folders, an indexing failure (any file
    ///   that failed is named), or a query failure.
    public func run(catalogFolder: String, negativesFolder: String?, configuration: SearchConfiguration = SearchConfiguration(),
                    catalog: ImageFingerprinter = .catalog, query: ImageFingerprinter = .query) async throws(EvaluationError) -> EvaluationReport {
        try await run(catalogFolder: catalogFolder, negativesFolder: negativesFolder, configuration: configuration,
                      indexing: catalog, queryFingerprint: { query.fingerprint(of: $0) })
    }

    /// ``run(catalogFolder:negativesFolder:configuration:catalog:query:)`` with every query
    /// first encoded as a baseline JPEG at `queryJPEGQuality` (1…100, 4:2:0) and fingerprinted
    /// by decoding those bytes with `query`, as `glimpse query` does with a JPEG file: the
    /// query then goes through the query decode size (DCT scaling,
    /// ``ImageFingerprinter/querySmallImageSides``) instead of being fingerprinted from its
    /// pixels. Run it twice with different `query` decode sizes to measure what the decode
    /// size costs; the JPEG encoding is the same in both. A query the encoder refuses (none
    /// in practice: every query is RGBA8 within libjpeg's limits) is fingerprinted from its
    /// pixels. Cost: one JPEG encode and decode per query on top of the search.
    public func run(catalogFolder: String, negativesFolder: String?, configuration: SearchConfiguration = SearchConfiguration(),
                    catalog: ImageFingerprinter = .catalog, query: ImageFingerprinter = .query,
                    queryJPEGQuality quality: Int) async throws(EvaluationError) -> EvaluationReport {
        try await run(catalogFolder: catalogFolder, negativesFolder: negativesFolder, configuration: configuration,
                      indexing: catalog, queryFingerprint: { pixels in
                          do {
                              let bytes = try JPEGEncoder(quality: quality).encode(pixels)
                              return try query.fingerprint(decoding: bytes, source: "query (JPEG q\(quality))")
                          } catch {
                              return query.fingerprint(of: pixels)
                          }
                      })
    }

    /// ``run(catalogFolder:negativesFolder:configuration:catalog:query:)`` with any way of
    /// fingerprinting catalog files (`indexing`) and query pixels (`queryFingerprint`).
    public func run(catalogFolder: String, negativesFolder: String?, configuration: SearchConfiguration = SearchConfiguration(),
                    indexing: any ImageFingerprinting,
                    queryFingerprint: @escaping @Sendable (PixelBuffer) -> Fingerprint) async throws(EvaluationError) -> EvaluationReport {
        _ = try ImageFolder.images(in: catalogFolder)  // a missing or empty folder is named before any indexing
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-eval-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        } catch {
            throw .indexingFailed(catalogFolder, reason: "cannot create a temporary folder: \(error)")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }

        let store: SQLiteEntityStore
        do {
            store = try SQLiteEntityStore(path: scratch.appendingPathComponent("catalog.sqlite").path)
            let indexer = CatalogIndexer(store: store, fingerprinter: indexing,
                                         maxConcurrency: concurrency)
            let report = try await indexer.index(FolderCatalogSource(folderPath: catalogFolder))
            if let failure = report.failed.first {
                throw EvaluationError.indexingFailed(catalogFolder, reason: "\(report.failed.count) file(s) failed, first \(failure)")
            }
        } catch let error as EvaluationError {
            throw error
        } catch {
            throw .indexingFailed(catalogFolder, reason: "\(error)")
        }

        return try await evaluate(searching: store, snapshotPath: nil, catalogFolder: catalogFolder, negativesFolder: negativesFolder,
                                  configuration: configuration, queryFingerprint: queryFingerprint)
    }

    /// ``run(catalogFolder:negativesFolder:configuration:catalog:query:)`` against a catalog
    /// that already holds `catalogFolder`'s images under the ids a folder catalog gives them,
    /// among others: the distractor catalog of `benchmarks/scale.sh`, so that recall is
    /// measured among its distractors. It is opened read-only and its visual-index snapshot
    /// mapped when current (else the index is built in memory; nothing is written).
    ///
    /// - Throws: ``EvaluationError/unusableCatalog(_:reason:)`` when the catalog cannot be
    ///   opened or lacks one of the folder's images (the first missing id is named).
    ///
    /// With `compareExhaustive` every query is also answered by the exhaustive scan (the same
    /// catalog, ``ScanStrategy/exhaustive``), and the report carries the first stage's
    /// agreement with it (``EvaluationReport/firstStageAgreement``): one more search per query.
    public func run(catalogFolder: String, negativesFolder: String?, configuration: SearchConfiguration = SearchConfiguration(),
                    searchingCatalogAt path: String, query: ImageFingerprinter = .query,
                    compareExhaustive: Bool = false) async throws(EvaluationError) -> EvaluationReport {
        let expected = try ImageFolder.images(in: catalogFolder).map(ImageFolder.landmarkID(for:))
        let store: SQLiteEntityStore
        do {
            store = try SQLiteEntityStore(path: path, mode: .readOnly)
            let found = Set(try store.landmarks(ids: expected).map(\.id))
            if let missing = expected.first(where: { !found.contains($0) }) {
                throw EvaluationError.unusableCatalog(path, reason: "it does not hold \(missing) of \(catalogFolder) (index the folder into it first: glimpse index \(catalogFolder) --db \(path))")
            }
        } catch let error as EvaluationError {
            throw error
        } catch {
            throw .unusableCatalog(path, reason: "\(error)")
        }
        return try await evaluate(searching: store, snapshotPath: VisualIndexSnapshot.path(forCatalogAt: path), catalogFolder: catalogFolder,
                                  negativesFolder: negativesFolder, configuration: configuration, queryFingerprint: { query.fingerprint(of: $0) },
                                  compareExhaustive: compareExhaustive)
    }

    /// Queries every transformed image of the folders against `store`.
    private func evaluate(searching store: SQLiteEntityStore, snapshotPath: String?, catalogFolder: String, negativesFolder: String?,
                          configuration: SearchConfiguration,
                          queryFingerprint: @escaping @Sendable (PixelBuffer) -> Fingerprint,
                          compareExhaustive: Bool = false) async throws(EvaluationError) -> EvaluationReport {
        // `concurrency` queries at once: each search scans on its share of the cores. The
        // snapshot path is the catalog's own (or none): whatever is there may be repaired.
        let query = VisualSearchQuery(store: store, configuration: configuration, snapshotPath: snapshotPath, snapshotReplacement: .anyFile,
                                      scanThreads: AvailableCores.share(among: concurrency), fingerprint: queryFingerprint)
        var exhaustiveConfiguration = configuration
        exhaustiveConfiguration.strategy = .exhaustive
        let exhaustive = compareExhaustive && configuration.strategy != .exhaustive
            ? VisualSearchQuery(store: store, configuration: exhaustiveConfiguration, snapshotPath: snapshotPath, snapshotReplacement: .anyFile,
                                scanThreads: AvailableCores.share(among: concurrency), fingerprint: queryFingerprint)
            : nil
        return try await evaluate(catalogFolder: catalogFolder, negativesFolder: negativesFolder,
                                  searchThreshold: configuration.scoring.noMatchThreshold) { pixels in
            // Collections are interleaved with landmarks; 30 entries always hold the first ten landmarks
            // of a catalog with fewer than 20 collections, and more landmarks otherwise.
            let page = try await query.values(for: SemanticContentDescriptor(pixelBuffer: pixels),
                                              page: PageRequest(size: 30, deadline: .seconds(60)))
            let ranked = page.items.compactMap { $0.value.landmark?.id }
            let fingerprint = queryFingerprint(pixels)
            let best = try await query.landmarkMatches(for: fingerprint, minimumScore: 0, limit: 1).first
            let reference = try await exhaustive?.landmarkMatches(for: fingerprint, minimumScore: configuration.scoring.noMatchThreshold, limit: 10)
            return SearchAnswer(landmarkIDs: Array(ranked.prefix(10)), topScore: best?.score, topID: best?.landmarkID,
                                topDistances: best.map { [$0.pdqDistance, $0.pHashDistance, $0.dHashDistance, $0.histogramDistance, $0.queryViewIndex] },
                                exhaustiveIDs: reference?.map(\.landmarkID),
                                queryCodes: exhaustive == nil ? nil : Self.firstStageCodes(of: fingerprint, minimumViewQuality: configuration.scoring.minimumViewQuality))
        }
    }

    /// The query's informative views as the first stage reads them (``QueryOutcome/queryCodes``).
    /// O(views).
    static func firstStageCodes(of fingerprint: Fingerprint, minimumViewQuality: Int) -> [String] {
        fingerprint.views.filter { $0.quality >= minimumViewQuality }.map { view in
            String(format: "%016llx:%016llx:", view.pHash, view.dHash) + (view.region == .full ? "F" : "I")
        }
    }
}
