import Foundation

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
///   are skipped; other files are ignored.
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
    /// O(files) I/O, no decoding.
    ///
    /// - Throws: ``CatalogSourceError/unreadable(_:reason:)`` when the folder cannot be
    ///   listed, ``CatalogSourceError/invalid(source:issues:)`` when two images map to the
    ///   same id (`a.jpg` and `a.png` side by side).
    public func load() throws(CatalogSourceError) -> CatalogContent {
        let root = URL(fileURLWithPath: folderPath).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unreadable(folderPath, reason: "not a folder")
        }
        var landmarks: [LandmarkEntity] = []
        var collections: [CollectionEntity] = []
        var firstFileForID: [String: String] = [:]
        var issues: [CatalogIssue] = []
        try walk(root, relative: [], landmarks: &landmarks, collections: &collections, firstFileForID: &firstFileForID, issues: &issues)
        guard issues.isEmpty else { throw .invalid(source: folderPath, issues: issues) }
        return try CatalogContent(landmarks: landmarks, collections: collections).validated(source: folderPath)
    }

    private func walk(
        _ folder: URL, relative: [String], landmarks: inout [LandmarkEntity], collections: inout [CollectionEntity],
        firstFileForID: inout [String: String], issues: inout [CatalogIssue]
    ) throws(CatalogSourceError) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw .unreadable(folder.path, reason: (error as NSError).localizedDescription)
        }
        var direct: [String] = []
        var subfolders: [(URL, String)] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey, .isRegularFileKey])
            if values?.isDirectory == true {
                if values?.isSymbolicLink != true { subfolders.append((url, name)) }
                continue
            }
            if values?.isSymbolicLink == true {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            }
            switch ImageFileSniffer.sniff(path: url.path) {
            case .image: break
            case .other, .unreadable: continue
            }
            let stem = (name as NSString).deletingPathExtension
            let id = (relative + [stem.isEmpty ? name : stem]).joined(separator: "/")
            let relativeFile = (relative + [name]).joined(separator: "/")
            if let first = firstFileForID[id] {
                issues.append(.duplicateID(entry: relativeFile, id: id, firstEntry: first))
                continue
            }
            firstFileForID[id] = relativeFile
            landmarks.append(LandmarkEntity(id: id, name: stem.isEmpty ? name : stem, referenceImages: [ReferenceImage(path: url.path)]))
            direct.append(id)
        }
        if !relative.isEmpty && !direct.isEmpty {
            collections.append(CollectionEntity(id: relative.joined(separator: "/"), name: relative[relative.count - 1], landmarkIDs: direct.sorted()))
        }
        for (url, name) in subfolders {
            try walk(url, relative: relative + [name], landmarks: &landmarks, collections: &collections, firstFileForID: &firstFileForID, issues: &issues)
        }
    }
}
