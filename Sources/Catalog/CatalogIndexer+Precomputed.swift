import Foundation
import Fingerprints

extension CatalogIndexer {
    /// Writes content whose fingerprints are already known (a synthetic catalog for load
    /// tests, a catalog moved from another store) through the same write path as
    /// ``index(_:sourceDescription:progress:)``: the fingerprints go to the store's
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
        do {
            // Image paths are stored relative to the database's folder, as the indexer stores them.
            var content = content
            let locator = store.paths
            for index in content.landmarks.indices {
                for image in content.landmarks[index].referenceImages.indices {
                    content.landmarks[index].referenceImages[image].path = locator.stored(content.landmarks[index].referenceImages[image].path)
                }
            }
            let state = try await store.indexingState()
            var report = IndexReport(version: try await store.catalogVersion())
            var hashes: [String: ContentHash] = [:]
            var fingerprints: [ContentHash: Fingerprint] = [:]
            for landmark in content.landmarks {
                for image in landmark.referenceImages where hashes[image.path] == nil {
                    if let fingerprint = image.fingerprint {
                        let hash = fingerprint.serialized().withUnsafeBytes { ContentHash(of: $0) }
                        hashes[image.path] = hash
                        if state.cachedLayoutVersions[hash] == nil {
                            fingerprints[hash] = fingerprint
                            report.fingerprinted += 1
                        }
                        switch state.catalogHashes[image.path] {
                        case nil: report.added.append(image.path)
                        case hash?: report.unchanged.append(image.path)
                        default: report.updated.append(image.path)
                        }
                    } else if let previous = state.catalogHashes[image.path] {
                        hashes[image.path] = previous
                        report.unchanged.append(image.path)
                    }
                }
            }
            report.added.sort()
            report.updated.sort()
            report.unchanged.sort()
            try await store.saveFileStates([], fingerprints: fingerprints)
            return try await store.commit(content, hashes: hashes, sourceDescription: sourceDescription, report: report, progress: progress)
        } catch let error as CatalogStoreError {
            throw .store(error)
        } catch {
            throw .stoppedByCaller("\(error)")
        }
    }
}
