import Foundation

/// The PNG and JPEG files under a folder, found recursively by extension, sorted by
/// relative path so every run sees them in the same order.
enum ImageFolder {
    /// File extensions taken as images (compared case-insensitively).
    static let extensions: Set<String> = ["png", "jpg", "jpeg", "webp", "heic", "heif", "avif"]

    /// Paths relative to `folder` (with `/` separators) of every image under it; hidden
    /// files and folders are skipped. O(entries).
    ///
    /// - Throws: ``EvaluationError/unreadableFolder(_:reason:)`` when `folder` is not a
    ///   readable directory, ``EvaluationError/noImages(_:)`` when it holds no image.
    static func images(in folder: String) throws(EvaluationError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unreadableFolder(folder, reason: "not a directory")
        }
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
            throw .unreadableFolder(folder, reason: "cannot be enumerated")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let ext = (relative as NSString).pathExtension.lowercased()
            guard extensions.contains(ext) else { continue }
            var entryIsDirectory: ObjCBool = false
            let full = (folder as NSString).appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: full, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue {
                found.append(relative)
            }
        }
        guard !found.isEmpty else { throw .noImages(folder) }
        return found.sorted()
    }

    /// The landmark id a folder catalog gives an image: its relative path without the
    /// extension (`animals/otter.jpg` → `animals/otter`).
    static func landmarkID(for relativePath: String) -> String {
        (relativePath as NSString).deletingPathExtension
    }
}
