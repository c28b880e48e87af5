import Foundation
import Fingerprints
import PixelBuffers

/// Builds or refreshes a catalog from a ``CatalogSource``: incremental, parallel and
/// transactional.
///
/// 1. **Check**: every image is `stat`ed; one whose size and modification time match the
///    last run and whose fingerprint is cached, of the fingerprinter's layout version
///    (``ImageFingerprinting/layoutVersion``), is unchanged and never read. A cached
///    fingerprint of another layout version is recomputed and its file reported as updated.
/// 2. **Fingerprint**: the others are read and hashed (128-bit ``ContentHash``); if a
///    fingerprint for that content is cached (a file merely touched, or finished by an
///    interrupted run) it is reused, otherwise the file is fingerprinted. Up to
///    ``maxConcurrency`` files at a time. Results are saved in small transactions to a
///    cache the catalog does not read yet, so an interrupted run loses at most a batch.
///    A file that fails is reported with its reason and the run goes on.
/// 3. **Write**: the whole new catalog is written in one transaction of the ``EntityStore``. A crash,
///    `kill -9`, cancellation or a throwing progress callback before it commits leaves the
///    previous catalog exactly as it was; re-running finishes the job.
public struct CatalogIndexer: Sendable {
    /// Where the catalog is stored.
    public var store: any EntityStore
    /// Decodes and fingerprints images.
    public var fingerprinter: any ImageFingerprinting
    /// Most images fingerprinted at once (default: the number of active cores).
    public var maxConcurrency: Int
    /// How many fingerprinted files are saved per cache transaction.
    public var batchSize = 32

    /// Creates an indexer.
    public init(store: any EntityStore, fingerprinter: any ImageFingerprinting, maxConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.store = store
        self.fingerprinter = fingerprinter
        self.maxConcurrency = max(1, maxConcurrency)
    }

    /// Loads `source` and indexes it. See the type's documentation for the steps.
    ///
    /// - Parameters:
    ///   - mode: whether the source is the whole catalog (``IndexMode/replace``, the
    ///     default: what it no longer names is removed) or adds to it (``IndexMode/add``).
    ///   - progress: called on the calling task after each file and each entity written; it
    ///     may throw to stop the run (the catalog is then left unchanged).
    /// - Throws: ``CatalogIndexError``; per-file failures are not errors, they are in the
    ///   report.
    public func index(
        _ source: some CatalogSource, mode: IndexMode = .replace, progress: (IndexProgress) throws -> Void = { _ in }
    ) async throws(CatalogIndexError) -> IndexReport {
        let content: CatalogContent
        do { content = try source.load() } catch { throw .source(error) }
        return try await index(content, sourceDescription: source.sourceDescription, mode: mode, progress: progress)
    }

    /// Indexes already-loaded, validated content (`mode` as in ``index(_:mode:progress:)``).
    public func index(
        _ content: CatalogContent, sourceDescription: String, mode: IndexMode = .replace, progress: (IndexProgress) throws -> Void = { _ in }
    ) async throws(CatalogIndexError) -> IndexReport {
        do {
            return try await run(content, sourceDescription: sourceDescription, mode: mode, progress: progress)
        } catch let error as CatalogIndexError {
            throw error
        } catch let error as CatalogSourceError {
            throw .source(error)
        } catch let error as CatalogStoreError {
            // A store interrupted by the cancellation reports it as its own error.
            if Task.isCancelled { throw .cancelled }
            throw .store(error)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .stoppedByCaller("\(error)")
        }
    }

    /// The outcome of checking or fingerprinting one file.
    private enum FileOutcome: Sendable {
        case done(FileState, Fingerprint?)
        case failed(path: String, reason: String)
    }

    private func run(_ content: CatalogContent, sourceDescription: String, mode: IndexMode, progress: (IndexProgress) throws -> Void) async throws -> IndexReport {
        var content = try content.validated(source: sourceDescription)
        // Image paths are kept, cached and stored relative to the database's folder
        // (CatalogPaths); files are read at that path resolved against the folder as given.
        let locator = store.paths
        for index in content.landmarks.indices {
            for image in content.landmarks[index].referenceImages.indices {
                content.landmarks[index].referenceImages[image].path = locator.stored(content.landmarks[index].referenceImages[image].path)
            }
        }
        content.unreadable = content.unreadable.map { .init(path: locator.stored($0.path), reason: $0.reason) }
        if mode == .add { try await refuseTakenIDs(content, source: sourceDescription) }
        // An add run reads the state of its own files only (O(source), not O(catalog)).
        let state = try await store.indexingState(paths: mode == .add ? content.imagePaths : nil)
        let layoutVersion = fingerprinter.layoutVersion
        var report = IndexReport(version: try await store.catalogVersion())
        report.failed = content.unreadable
        let paths = content.imagePaths
        var hashes: [String: ContentHash] = [:]
        var toProcess: [(path: String, size: Int64, mtime: Int64)] = []

        for (index, path) in paths.enumerated() {
            try Task.checkCancellation()
            switch Self.stat(locator.resolved(path)) {
            case .failure(let reason):
                report.failed.append(.init(path: path, reason: reason))
            case .success(let (size, mtime)):
                if let known = state.fileStates[path], known.size == size, known.mtimeNanoseconds == mtime,
                   state.cachedLayoutVersions[known.contentHash] == layoutVersion {
                    hashes[path] = known.contentHash
                } else {
                    toProcess.append((path, size, mtime))
                }
            }
            try progress(IndexProgress(phase: .checking, completed: index + 1, total: paths.count, path: path))
        }

        // Hash and fingerprint in parallel, at most `maxConcurrency` files in flight.
        let fingerprinter = self.fingerprinter
        let cached = Set(state.cachedLayoutVersions.filter { $0.value == layoutVersion }.keys)
        var pendingStates: [FileState] = []
        var pendingFingerprints: [ContentHash: Fingerprint] = [:]
        var wholeImageQualities = state.cachedWholeImageQualities
        try await withThrowingTaskGroup(of: FileOutcome.self) { group in
            var next = 0
            var finished = 0
            func launch() {
                guard next < toProcess.count else { return }
                let item = toProcess[next]
                next += 1
                group.addTask {
                    try Task.checkCancellation()
                    return Self.process(item.path, at: locator.resolved(item.path), size: item.size, mtime: item.mtime, cached: cached, fingerprinter: fingerprinter)
                }
            }
            for _ in 0..<min(maxConcurrency, toProcess.count) { launch() }
            while let outcome = try await group.next() {
                finished += 1
                let path: String
                switch outcome {
                case .failed(let failedPath, let reason):
                    path = failedPath
                    report.failed.append(.init(path: failedPath, reason: reason))
                case .done(let fileState, let fingerprint):
                    path = fileState.path
                    hashes[path] = fileState.contentHash
                    pendingStates.append(fileState)
                    if let fingerprint {
                        pendingFingerprints[fileState.contentHash] = fingerprint
                        wholeImageQualities[fileState.contentHash] = fingerprint.wholeImageQuality
                        report.fingerprinted += 1
                    }
                }
                if pendingStates.count >= batchSize {
                    try await store.saveFileStates(pendingStates, fingerprints: pendingFingerprints)
                    pendingStates = []
                    pendingFingerprints = [:]
                }
                try progress(IndexProgress(phase: .fingerprinting, completed: finished, total: toProcess.count, path: path))
                launch()
            }
        }
        try await store.saveFileStates(pendingStates, fingerprints: pendingFingerprints)

        // Classify against the catalog as it was; a failed file keeps its last good hash.
        for path in paths {
            if let hash = hashes[path] {
                if let best = wholeImageQualities[hash], best < FingerprintView.minimumSearchableQuality { report.unsearchable.append(path) }
                switch state.catalogHashes[path] {
                case nil: report.added.append(path)
                case hash?:
                    // Same content, but its fingerprint was recomputed for this layout version.
                    if let version = state.cachedLayoutVersions[hash], version != layoutVersion {
                        report.updated.append(path)
                    } else {
                        report.unchanged.append(path)
                    }
                default: report.updated.append(path)
                }
            } else if let previous = state.catalogHashes[path] {
                hashes[path] = previous
            }
        }
        // A landmark none of whose images has a fingerprint (every one failed, none had a
        // good one before) is not written: a failed file never becomes a searchable
        // landmark. Collections lose it; a collection left empty is not written either.
        let unusable = Set(content.landmarks.filter { landmark in
            !landmark.referenceImages.contains { hashes[$0.path] != nil }
        }.map(\.id))
        if !unusable.isEmpty {
            content.landmarks.removeAll { unusable.contains($0.id) }
            content.collections = content.collections.compactMap { collection in
                var collection = collection
                collection.landmarkIDs.removeAll { unusable.contains($0) }
                return collection.landmarkIDs.isEmpty ? nil : collection
            }
        }
        // The report names files as they are opened (resolved), like every message.
        report.added = report.added.map(locator.resolved)
        report.updated = report.updated.map(locator.resolved)
        report.unchanged = report.unchanged.map(locator.resolved)
        report.unsearchable = report.unsearchable.map(locator.resolved).sorted()
        report.failed = report.failed.map { .init(path: locator.resolved($0.path), reason: $0.reason) }
        report.added.sort()
        report.updated.sort()
        report.unchanged.sort()
        report.failed.sort { $0.path < $1.path }
        try Task.checkCancellation()
        return try await store.commit(content, hashes: hashes, sourceDescription: sourceDescription, report: report, mode: mode, progress: progress)
    }

    /// Stops an ``IndexMode/add`` run whose content names a live landmark that the catalog
    /// holds with none of the same image files (another source's landmark of the same id),
    /// before anything is read or written. `content`'s paths are stored ones.
    /// - Throws: ``CatalogSourceError/invalid(source:issues:)`` naming each such landmark.
    /// - Complexity: one batched read of the content's landmarks.
    private func refuseTakenIDs(_ content: CatalogContent, source: String) async throws {
        let locator = store.paths
        let existing = try await store.landmarks(ids: content.landmarks.map(\.id))
        let existingPaths = Dictionary(existing.map { ($0.id, Set($0.referenceImages.map { locator.stored($0.path) })) }, uniquingKeysWith: { first, _ in first })
        var issues: [CatalogIssue] = []
        for (index, landmark) in content.landmarks.enumerated() {
            guard let held = existingPaths[landmark.id], !held.isEmpty,
                  held.isDisjoint(with: landmark.referenceImages.map(\.path)) else { continue }
            issues.append(.idTakenByOtherImages(entry: "landmarks[\(index)]", id: landmark.id, existing: held.map(locator.resolved).sorted()))
        }
        guard issues.isEmpty else { throw CatalogSourceError.invalid(source: source, issues: issues) }
    }

    /// Size and modification time (ns) of a regular file, or why not (never opens it, so
    /// a FIFO is refused without blocking).
    private static func stat(_ path: String) -> Result<(Int64, Int64), StatFailure> {
        switch FileBytes.regularFileStatus(path) {
        case .success(let status): .success((status.size, status.modificationNanoseconds))
        case .failure(let reason): .failure(StatFailure("cannot read file: \(reason)"))
        }
    }

    /// Reads the file at `file` (the stored `path` resolved) and fingerprints it.
    private static func process(_ path: String, at file: String, size: Int64, mtime: Int64, cached: Set<ContentHash>, fingerprinter: any ImageFingerprinting) -> FileOutcome {
        let data: Data
        // Regular files only, opened without blocking (FileBytes).
        do { data = Data(try FileBytes.contents(ofFile: file)) } catch {
            guard case .unreadableFile(_, let reason) = error else { return .failed(path: path, reason: error.description) }
            return .failed(path: path, reason: "cannot read file: \(reason)")
        }
        let hash = ContentHash(of: data)
        let state = FileState(path: path, size: size, mtimeNanoseconds: mtime, contentHash: hash)
        if cached.contains(hash) { return .done(state, nil) }
        do {
            return .done(state, try fingerprinter.fingerprint(imageData: data, path: file))
        } catch {
            return .failed(path: path, reason: "\(error)")
        }
    }
}

/// A reason a file could not be examined (a `Result` failure type).
private struct StatFailure: Error, ExpressibleByStringLiteral, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
    init(stringLiteral value: String) { description = value }
}

extension IndexReport.Failure {
    fileprivate init(path: String, reason: StatFailure) {
        self.init(path: path, reason: reason.description)
    }
}
