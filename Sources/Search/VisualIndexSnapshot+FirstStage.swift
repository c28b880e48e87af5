import Catalog
import Fingerprints
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension VisualIndexSnapshot {
    /// What ``refreshFirstStage(store:path:policy:minimumViewQuality:)`` did.
    public enum FirstStageAction: Sendable, Hashable, CustomStringConvertible {
        /// The first-stage file already belonged to the current snapshot.
        case upToDate
        /// Built and written: its list count, and its bytes per view.
        case written(lists: Int, bytes: Int)
        /// The policy wants none for this catalog (a file left from before was removed).
        case notWanted
        /// Not written (why): searches scan every view.
        case notWritten(String)

        /// One line for people, naming what and why.
        public var description: String {
            switch self {
            case .upToDate: "first stage up to date"
            case .written(let lists, let bytes): "first stage written (\(lists) lists, \(bytes) bytes)"
            case .notWanted: "no first stage"
            case .notWritten(let reason): "first stage not written (\(reason))"
            }
        }
    }

    /// Brings the first-stage file (``CandidateIndex/path(forSnapshotAt:)``) of the snapshot
    /// at `path` up to date with it: what `glimpse index` runs after
    /// ``rewrite(store:path:minimumViewQuality:)``. Built from the mapped snapshot
    /// (``CandidateIndex/build(from:lists:threads:)``) when `policy` wants one and the file is
    /// missing, stale or damaged; removed when `policy` wants none (``FirstStagePolicy/keep``
    /// wants one exactly when the file exists).
    ///
    /// - Complexity: O(1) when up to date; otherwise the build's cost.
    /// - Throws: the store's error when its version cannot be read.
    ///
    /// - Parameters:
    ///   - lists: the list count of a build (default ``CandidateIndex/defaultListCount(views:)``).
    ///   - rebuild: build and write even when the file is up to date (tuning runs).
    public static func refreshFirstStage(store: any EntityStore, path: String?, policy: FirstStagePolicy,
                                         minimumViewQuality: Int = SimilarityScoring.default.minimumViewQuality,
                                         lists: Int? = nil, rebuild: Bool = false)
        async throws(CatalogStoreError) -> FirstStageAction {
        guard let path else { return .notWritten("in-memory catalog") }
        let filePath = CandidateIndex.path(forSnapshotAt: path)
        guard case .loaded(let index) = load(path: path, expecting: try await store.catalogVersion(), minimumViewQuality: minimumViewQuality) else {
            return .notWritten("no current visual-index snapshot")
        }
        guard policy.wants(views: index.viewCount, hadOne: access(filePath, F_OK) == 0) else {
            unlink(filePath)
            return .notWanted
        }
        if index.firstStage != nil && !rebuild { return .upToDate }
        do {
            let firstStage = try CandidateIndex.build(from: index, lists: lists)
            try firstStage.write(to: filePath)
            return .written(lists: firstStage.listCount, bytes: firstStage.bytesUsed)
        } catch let error as VisualIndexDamage {
            return .notWritten(error.description)
        } catch let error as VisualIndexSnapshotError {
            return .notWritten(error.description)
        } catch {
            return .notWritten("\(error)")
        }
    }
}
