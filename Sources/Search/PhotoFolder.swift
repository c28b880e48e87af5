import Foundation

/// The photos under a folder, for batch matching: every regular file, recursively, whose
/// first bytes are a PNG, JPEG, WebP, HEIF or AVIF signature, plus files named like images
/// (`.jpg`, `.jpeg`, `.png`, `.webp`, `.heic`, `.heif`, `.avif`) whatever their bytes, so that a damaged photo gets an error row
/// instead of silently vanishing. Hidden files and folders are skipped, symbolic links
/// to folders are not followed.
public struct PhotoFolder: Sendable, Hashable {
    /// The folder as given (trailing slashes removed).
    public var path: String
    /// The photos, `path/relative/name`, sorted by path.
    public var photos: [String]
    /// Files that are neither images by their bytes nor by their name (not matched).
    public var otherFileCount: Int

    /// File name extensions that make a file a photo even when its bytes do not say so.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "png", "webp", "heic", "heif", "hif", "avif"]

    /// Walks `path` and sniffs the first 64 bytes of every file. O(files) I/O.
    ///
    /// - Throws: ``BatchMatchError/unreadableFolder(_:reason:)``.
    public init(scanning path: String) throws(BatchMatchError) {
        var root = path
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw .unreadableFolder(path, reason: "no such folder")
        }
        guard isDirectory.boolValue else { throw .unreadableFolder(path, reason: "not a folder") }
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw .unreadableFolder(path, reason: "cannot list the folder")
        }
        var photos: [String] = []
        var others = 0
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            let full = root == "/" ? "/" + relative : root + "/" + relative
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            if name.hasPrefix(".") {
                if isFolder.boolValue { walker.skipDescendants() }
                continue
            }
            // Folders (and links to folders, which the walker does not enter) are not photos.
            guard exists, !isFolder.boolValue else { continue }
            if Self.looksLikeImage(full) || Self.imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                photos.append(full)
            } else {
                others += 1
            }
        }
        self.path = root
        self.photos = photos.sorted()
        self.otherFileCount = others
    }

    /// Whether the file's first bytes are an image signature (``ImageFormat/detect(_:)``):
    /// reads 64 bytes, enough for a HEIF `ftyp` box and its compatible brands.
    static func looksLikeImage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 64) else { return false }
        return ImageFormat.detect(head) != nil
    }
}
