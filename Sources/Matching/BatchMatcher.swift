import Catalog
import Fingerprints
import Foundation
import PixelBuffers
import Search

/// Matches many photos against the catalog (`glimpse match`): each photo is read,
/// decoded at the DCT scale the fingerprint needs (only the ``SearchRequest/region`` when
/// the request names one), fingerprinted (query layout) and searched; its best landmarks
/// (at most the request's page size) become one ``PhotoMatchRecord``.
///
/// The one ``SearchRequest`` of every front door describes each photo's search: its region,
/// page size and minimum score are used here; its labels and deadline are not (every photo is searched in
/// full), and its `exact` is the ``VisualSearchQuery``'s strategy, which the caller sets.
///
/// Up to ``jobs`` photos are in flight at once (decode, fingerprint and scan run on the
/// caller's concurrency pool, so `jobs` beyond the core count adds nothing). Records are
/// handed back **in input order** whatever order they finish in, so the output is
/// deterministic; at most `4 × jobs` finished records wait for a slow one.
///
/// A photo that cannot be read or decoded becomes a ``PhotoMatchRecord/Status/failed``
/// record and the run goes on; only a failing catalog stops it.
public struct BatchMatcher: Sendable {
    /// The search the photos go through (its configuration's no-match threshold decides
    /// what counts as a match).
    public var query: VisualSearchQuery
    /// Decodes and fingerprints a photo; give it a *query* layout (``ImageFingerprinter/query``).
    public var fingerprinter: ImageFingerprinter
    /// Most photos processed at once (≥ 1).
    public var jobs: Int
    /// What each photo's search asks: its region, page size (most landmarks kept per photo)
    /// and minimum score (`nil`: the query's configured no-match threshold).
    public var request: SearchRequest

    /// Creates a batch matcher.
    public init(query: VisualSearchQuery, fingerprinter: ImageFingerprinter,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, request: SearchRequest) {
        self.query = query
        self.fingerprinter = fingerprinter
        self.jobs = max(1, jobs)
        self.request = request
    }

    /// Matches one photo. Cost: reading it, one scaled decode, one fingerprint, one index
    /// scan, one exact-copy lookup (``CopyKey``, whole photos only), one store lookup of at
    /// most the request's page size of landmarks.
    ///
    /// - Throws: ``BatchMatchError/search(_:)`` only when the catalog fails; a bad photo
    ///   gives a failed record.
    public func match(photo path: String) async throws(BatchMatchError) -> PhotoMatchRecord {
        try await outcome(photo: path).get()
    }

    /// ``match(photo:)`` with the error as a value. Task-group children use this: with
    /// typed throws inside a child, release builds (Swift 6.3) have handed back garbage
    /// values from `group.next()` (see the evaluation runner); values avoid that.
    func outcome(photo path: String) async -> Result<PhotoMatchRecord, BatchMatchError> {
        let fingerprint: Fingerprint
        let copyKey: CopyKey?
        switch Result(catching: { () throws(DecodeError) -> ([UInt8], Fingerprint) in
            let bytes = try FileBytes.contents(ofFile: path)
            return (bytes, try fingerprinter.fingerprint(decoding: bytes, source: path, region: request.region))
        }) {
        case .success(let (bytes, value)):
            fingerprint = value
            // A whole photo that is an exact copy of a catalog image matches whatever its detail.
            copyKey = request.region == nil ? CopyKey(bytes: bytes, queryFingerprint: value) : nil
        case .failure(let error): return .success(.failure(error.description, photo: path))
        }
        let matches: [LandmarkMatch]
        do {
            matches = try await query.landmarkMatches(
                for: fingerprint, minimumScore: request.minimumScore ?? query.configuration.scoring.noMatchThreshold, limit: request.pageSize,
                copyKey: copyKey)
        } catch { return .failure(.search(error)) }
        let landmarks: [LandmarkEntity]
        do { landmarks = try await query.store.landmarks(ids: matches.map(\.landmarkID)) } catch { return .failure(.search(.store(error))) }
        let byID = Dictionary(landmarks.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = matches.compactMap { match in byID[match.landmarkID].map { SearchResultRow(landmark: $0, score: match.score) } }
        return .success(.matches(rows, photo: path))
    }

    /// Matches `photos`, calling `onRecord` on the calling task with each record in
    /// input order and how many are finished.
    ///
    /// - Parameter onRecord: receives (record, completed count); may throw to stop the
    ///   run (photos in flight are cancelled).
    /// - Throws: ``BatchMatchError/search(_:)`` when the catalog fails, the
    ///   ``BatchMatchError`` `onRecord` threw, or ``BatchMatchError/stoppedByCaller(_:)``
    ///   for any other error it threw.
    /// - Complexity: ``match(photo:)`` once per photo, ``jobs`` at a time; at most
    ///   4 × ``jobs`` records held back to keep the input order.
    public func match(_ photos: [String], onRecord: (PhotoMatchRecord, Int) throws -> Void) async throws(BatchMatchError) {
        let failure: BatchMatchError? = await withTaskGroup(of: (Int, Result<PhotoMatchRecord, BatchMatchError>).self) { group in
            var next = 0
            var emitted = 0
            var waiting: [Int: PhotoMatchRecord] = [:]
            let window = jobs * 4
            func launch() {
                while next < photos.count && next - emitted < window && next - emitted - waiting.count < jobs {
                    let index = next
                    let photo = photos[index]
                    next += 1
                    group.addTask { (index, await self.outcome(photo: photo)) }
                }
            }
            launch()
            while let (index, result) = await group.next() {
                switch result {
                case .failure(let error):
                    group.cancelAll()
                    return error
                case .success(let record):
                    waiting[index] = record
                }
                while let ready = waiting.removeValue(forKey: emitted) {
                    emitted += 1
                    do { try onRecord(ready, emitted) } catch {
                        group.cancelAll()
                        return (error as? BatchMatchError) ?? .stoppedByCaller("\(error)")
                    }
                }
                launch()
            }
            return nil
        }
        if let failure { throw failure }
    }
}
