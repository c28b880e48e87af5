import Foundation
import PixelBuffers

/// A catalog made from a plain folder of images.
///
/// - Every PNG, JPEG, WebP, HEIF or AVIF file below the folder (recognised by its first bytes, whatever
///   its name) is a landmark whose id is its path relative to the folder without the
///   last extension, with `/` separators (`europe/paris/eiffel.jpg` → `europe/paris/eiffel`)
///   and whose name is the file name without extension.
/// - Every sub-folder that directly holds at least one image is a collection whose id is
///   the folder's relative path (`europe/paris`), whose name is the folder's name, and
///   whose landmarks are the images directly in it, ordered by id. The folder itself is
///   not a collection, and folders holding only sub-folders are not collections.
/// - Hidden files and folders (name starting with `.`) and symbolic links to folders
///   are skipped; other files are ignored, except those named like images (`.jpg`,
///   `.png`…) that are not, files that cannot be read (no permission, FIFO, device) and
///   sub-folders that cannot be listed: those are reported (``CatalogContent/unreadable``).
public struct FolderCatalogSource: CatalogSource {
    /// The catalog folder.
    public var folderPath: String

    /// Creates a source reading the folder at `folderPath`.
    public init(folderPath: String) {
        self.folderPath = folderPath
    }

    /// The folder path.
    public var sourceDescription: String { folderPath }

    /// Walks the folder (sorted, deterministic) and sniffs the first bytes of every file.
    /// O(files) I/O, no decoding. Files named like images (`.jpg`, `.png`, `.heic`…) that
    /// are not images (empty, text), files that cannot be read (permission, FIFO,
    /// device) and sub-folders that cannot be listed are not landmarks: each is listed in
    /// ``CatalogContent/unreadable`` with its reason, and the indexer reports and counts it.
    ///
    /// - Throws: ``CatalogSourceError/unreadable(_:reason:)`` when the folder itself cannot
    ///   be listed, ``CatalogSourceError/invalid(source:issues:)`` when two images map to the
    ///   same id (`a.jpg` and `a.png` side by side).
    public func load() throws(CatalogSourceError) -> CatalogContent {
        var root = folderPath
        if !root.hasPrefix("/") {
            root = FileManager.default.currentDirectoryPath + "/" + root
        }
        root = FileSystemPath.lexicallyNormalized(root)
        guard DirectoryListing.isFolder(root) else {
            throw .unreadable(folderPath, reason: DirectoryListing.exists(root) ? "not a folder" : "no such folder")
        }
        var walk = Walk()
        do { try walk.visit(root, relative: []) } catch { throw .unreadable(folderPath, reason: error.description) }
        guard walk.issues.isEmpty else { throw .invalid(source: folderPath, issues: walk.issues) }
        return try CatalogContent(landmarks: walk.landmarks, collections: walk.collections, unreadable: walk.unreadable)
            .validated(source: folderPath)
    }

    /// File name extensions of images: such a file that is not one is reported, not ignored.
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "png", "webp", "heic", "heif", "hif", "avif"]

    private struct Walk {
        var landmarks: [LandmarkEntity] = []
        var collections: [CollectionEntity] = []
        var unreadable: [IndexReport.Failure] = []
        var firstFileForID: [String: String] = [:]
        var issues: [CatalogIssue] = []

        /// Lists `folder`; throws only when it cannot be listed (the caller decides
        /// whether that stops the run: the root does, a sub-folder is reported).
        mutating func visit(_ folder: String, relative: [String]) throws(FileAccessFailure) {
            let listing = try DirectoryListing(folder: folder)
            var direct: [String] = []
            var subfolders: [(String, String)] = []
            for entry in listing.entries where !entry.name.hasPrefix(".") {
                let name = entry.name
                switch entry.kind {
                case .folder:
                    if !entry.isSymbolicLink { subfolders.append((entry.path, FileSystemPath.displayName(name))) }
                    continue
                case .other(let reason):
                    unreadable.append(.init(path: entry.path, reason: "cannot read file: \(reason)"))
                    continue
                case .regularFile:
                    break
                }
                // Ids and names are text for people: bytes of a file name that are not UTF-8
                // appear as \xHH, control characters escaped (`a\nb.jpg` → `a\\nb`).
                let shownName = FileSystemPath.displayName(name)
                let stem = (shownName as NSString).deletingPathExtension
                let named = FolderCatalogSource.imageExtensions.contains((name as NSString).pathExtension.lowercased())
                switch ImageFileSniffer.sniff(path: entry.path) {
                case .image: break
                case .unreadable(let reason):
                    unreadable.append(.init(path: entry.path, reason: "cannot read file: \(reason)"))
                    continue
                case .other:
                    if named { unreadable.append(.init(path: entry.path, reason: Self.notAnImageReason(entry.path))) }
                    continue
                }
                let id = (relative + [stem.isEmpty ? shownName : stem]).joined(separator: "/")
                let relativeFile = (relative + [FileSystemPath.displayName(name)]).joined(separator: "/")
                if let problem = CatalogContent.idProblem(id) {
                    unreadable.append(.init(path: entry.path, reason: "cannot be a landmark: its id \(problem)"))
                    continue
                }
                if let first = firstFileForID[id] {
                    issues.append(.duplicateID(entry: relativeFile, id: id, firstEntry: first))
                    continue
                }
                firstFileForID[id] = relativeFile
                landmarks.append(LandmarkEntity(id: id, name: stem.isEmpty ? shownName : stem, referenceImages: [ReferenceImage(path: entry.path)]))
                direct.append(id)
            }
            if !relative.isEmpty && !direct.isEmpty {
                collections.append(CollectionEntity(id: relative.joined(separator: "/"), name: relative[relative.count - 1], landmarkIDs: direct.sorted()))
            }
            for (path, name) in subfolders {
                do { try visit(path, relative: relative + [name]) } catch {
                    unreadable.append(.init(path: path, reason: "cannot read folder: \(error.description)"))
                }
            }
        }

        static func notAnImageReason(_ path: String) -> String {
            if case .success(let status) = FileBytes.regularFileStatus(path), status.size == 0 { return "empty file" }
            return "not an image file (PNG, JPEG, WebP, HEIF or AVIF)"
        }
    }
}
