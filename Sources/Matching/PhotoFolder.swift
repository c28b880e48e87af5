import Foundation
import PixelBuffers

/// The photos under a folder, for batch matching: every regular file, recursively, whose
/// first bytes are an image signature (``ImageFormat/detect(_:)``: PNG, JPEG, WebP, HEIF,
/// AVIF), plus files named like images (`.jpg`, `.jpeg`, `.png`, `.webp`, `.heic`,
/// `.heif`, `.avif`) whatever their bytes and files that cannot be read (no permission, a
/// FIFO, a device), so that each gets an error row instead of silently vanishing; and
/// every sub-folder that cannot be listed (``unreadableFolders``). Hidden files and
/// folders are skipped, symbolic links to folders are not followed. Names that are not
/// UTF-8 are kept (``FileSystemPath``). Nothing is opened that could block.
public struct PhotoFolder: Sendable, Hashable {
    /// A sub-folder that could not be listed, and why.
    public struct UnreadableFolder: Sendable, Hashable, CustomStringConvertible {
        /// The folder, `path/relative`.
        public var path: String
        /// The system's reason (`Permission denied`).
        public var reason: String

        /// `PATH: cannot read folder: REASON`, the path shown escaped.
        public var description: String { "\(FileSystemPath.displayName(path)): cannot read folder: \(reason)" }
    }

    /// The folder as given (trailing slashes removed).
    public var path: String
    /// The photos, `path/relative/name`, sorted by path.
    public var photos: [String]
    /// Files that are neither images by their bytes nor by their name (not matched).
    public var otherFileCount: Int
    /// Sub-folders that could not be listed (their photos are missing from ``photos``).
    public var unreadableFolders: [UnreadableFolder]

    /// File name extensions that make a file a photo even when its bytes do not say so.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "png", "webp", "heic", "heif", "hif", "avif"]

    /// Walks `path` and sniffs the first bytes of every regular file. O(files) I/O.
    ///
    /// - Throws: ``BatchMatchError/unreadableFolder(_:reason:)`` when `path` itself is
    ///   missing, not a folder or cannot be listed.
    public init(scanning path: String) throws(BatchMatchError) {
        var root = path
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        var status = stat()
        guard FileSystemPath.withFileSystemRepresentation(root, { stat($0, &status) }) == 0 else {
            throw .unreadableFolder(path, reason: errno == ENOENT ? "no such folder" : String(cString: strerror(errno)))
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw .unreadableFolder(path, reason: "not a folder") }
        var walk = Walk()
        do { try walk.visit(root) } catch { throw .unreadableFolder(path, reason: error.description) }
        self.path = root
        self.photos = walk.photos.sorted()
        self.otherFileCount = walk.others
        self.unreadableFolders = walk.unreadableFolders
    }

    private struct Walk {
        var photos: [String] = []
        var others = 0
        var unreadableFolders: [UnreadableFolder] = []

        mutating func visit(_ folder: String) throws(FileAccessFailure) {
            let listing = try DirectoryListing(folder: folder)
            for entry in listing.entries where !entry.name.hasPrefix(".") {
                switch entry.kind {
                case .folder:
                    // Links to folders are not followed.
                    guard !entry.isSymbolicLink else { continue }
                    do { try visit(entry.path) } catch {
                        unreadableFolders.append(UnreadableFolder(path: entry.path, reason: error.description))
                    }
                case .other:
                    photos.append(entry.path) // a FIFO, device or dangling link: an error row says which
                case .regularFile:
                    let named = PhotoFolder.imageExtensions.contains((entry.name as NSString).pathExtension.lowercased())
                    switch FileBytes.head(ofFile: entry.path, count: 64) {
                    case .failure: photos.append(entry.path) // unreadable: an error row says why
                    case .success(let head):
                        if named || ImageFormat.detect(head) != nil { photos.append(entry.path) } else { others += 1 }
                    }
                }
            }
        }
    }
}
