import Foundation
import Fingerprints

extension CatalogIndexer {
    /// Writes content whose fingerprints are already known (a synthetic catalog for load
    /// tests, a catalog moved from another store) through the same write path as
    /// ``index(_:sourceDescription:mode:progress:)``: the fingerprints go to the store's
    /// fingerprint cache in one transaction, then the whole catalog is replaced in the one
    /// commit transaction (landmarks missing from `content` are soft-deleted as one
    /// undoable removal; the generation moves only if something visible changed).
    ///
    /// An image with a fingerprint is stored under the content hash of its serialized
    /// fingerprint (no file is read). An image without one keeps the content hash the
    /// catalog already has for its path (so landmarks indexed from real files can be carried
    /// over unchanged); if the catalog has none, the image stays unindexed.
    ///
    /// - Complexity: O(images + views) plus the store's writes.
    /// - Throws: ``CatalogIndexError/store(_:)``, or ``CatalogIndexError/stoppedByCaller(_:)``
    ///   when `progress` throws (nothing is then committed).
    public func index(
        precomputed content: CatalogContent, sourceDescription: String, progress: (IndexProgress) throws -> Void = { _ in }
    ) async throws(CatalogIndexError) -> IndexReport {
        var batches = [content.landmarks].makeIterator()
        return try await index(precomputedBatches: { batches.next() }, collections: content.collections,
                               sourceDescription: sourceDescription, progress: progress)
    }

    /// ``index(precomputed:sourceDescription:progress:)`` for a catalog too large to hold
    /// its fingerprints in memory: `nextBatch` hands out the landmarks (with their
    /// fingerprints) a batch at a time until it returns `nil`; each batch's new fingerprints
    /// are saved to the store's fingerprint cache in a transaction of their own and dropped,
    /// and the landmarks are kept without them for the one commit transaction, which writes
    /// the catalog (`collections` included) as ``index(precomputed:sourceDescription:progress:)``
    /// does. Memory: one batch's fingerprints plus every landmark's fields and image paths.
    ///
    /// - Complexity: O(images + views) plus the store's writes.
    /// - Throws: ``CatalogIndexError/store(_:)``, or ``CatalogIndexError/stoppedByCaller(_:)``
    ///   when `progress` or `nextBatch` throws (nothing is then committed; saved cache rows
    ///   are invisible to readers).
    public func index(
        precomputedBatches nextBatch: () async throws -> [LandmarkEntity]?, collections: [CollectionEntity], sourceDescription: String,
        progress: (IndexProgress) throws -> Void = { _ in }
    ) async throws(CatalogIndexError) -> IndexReport {
        do {
            // Image paths are stored relative to the database's folder, as the indexer stores them.
            let locator = store.paths
            let state = try await store.indexingState(paths: nil)
            var report = IndexReport(version: try await store.catalogVersion())
            var hashes: [String: ContentHash] = [:]
            var landmarks: [LandmarkEntity] = []
            while var batch = try await nextBatch() {
                try Task.checkCancellation()
                var fingerprints: [ContentHash: Fingerprint] = [:]
                for index in batch.indices {
                    for image in batch[index].referenceImages.indices {
                        let path = locator.stored(batch[index].referenceImages[image].path)
                        batch[index].referenceImages[image].path = path
                        guard hashes[path] == nil else { continue }
                        if let fingerprint = batch[index].referenceImages[image].fingerprint {
                            let hash = fingerprint.serialized().withUnsafeBytes { ContentHash(of: $0) }
                            hashes[path] = hash
                            if state.cachedLayoutVersions[hash] == nil {
                                fingerprints[hash] = fingerprint
                                report.fingerprinted += 1
                            }
                            switch state.catalogHashes[path] {
                            case nil: report.added.append(path)
                            case hash?: report.unchanged.append(path)
                            default: report.updated.append(path)
                            }
                        } else if let previous = state.catalogHashes[path] {
                            hashes[path] = previous
                            report.unchanged.append(path)
                        }
                    }
                    // The commit reads paths and hashes only: the fingerprint is in the cache now.
                    for image in batch[index].referenceImages.indices { batch[index].referenceImages[image].fingerprint = nil }
                }
                try await store.saveFileStates([], fingerprints: fingerprints)
                landmarks += batch
            }
            report.added.sort()
            report.updated.sort()
            report.unchanged.sort()
            let content = CatalogContent(landmarks: landmarks, collections: collections)
            return try await store.commit(content, hashes: hashes, sourceDescription: sourceDescription, report: report, mode: .replace, progress: progress)
        } catch let error as CatalogStoreError {
            throw .store(error)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .stoppedByCaller("\(error)")
        }
    }
}
