import Foundation
import PixelBuffers

/// How a catalog stores image paths so that its output does not depend on where it was
/// built: **relative to the folder of the catalog database file**, resolved on read
/// against that folder as the database path was given (`--db glimpse.sqlite` in the
/// repository root stores and shows `testdata/catalog/food/apricot.jpg`). Moving the
/// database together with the images (a clone, a copied folder) keeps every path valid.
/// Paths stored by older catalogs (absolute) are returned as they are.
///
/// Lexical: `..` folds without following links. An in-memory catalog stores absolute
/// paths.
public struct CatalogPaths: Sendable, Hashable {
    /// The database's folder as given (relative to the working folder or absolute), `.`
    /// for a bare file name, nil for an in-memory catalog.
    public let databaseFolder: String?
    /// The same folder made absolute against the working folder at creation.
    let absoluteDatabaseFolder: String?

    /// Paths for the catalog database at `databasePath` (`:memory:` for none). O(length).
    public init(databasePath: String) {
        guard databasePath != ":memory:" && !databasePath.isEmpty else {
            databaseFolder = nil
            absoluteDatabaseFolder = nil
            return
        }
        let folder = databasePath.lastIndex(of: "/").map { String(databasePath[..<$0]) } ?? "."
        let given = folder.isEmpty ? "/" : folder
        databaseFolder = given
        absoluteDatabaseFolder = FileSystemPath.lexicallyNormalized(
            given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given)
    }

    /// The stored form of `path` (absolute, or relative to the working folder): relative to
    /// the database's folder. O(length).
    public func stored(_ path: String) -> String {
        guard let base = absoluteDatabaseFolder else { return path }
        let absolute = FileSystemPath.lexicallyNormalized(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
        let from = base.split(separator: "/")
        let to = absolute.split(separator: "/")
        var common = 0
        while common < from.count && common < to.count && from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The path to open and show for the stored `path`: joined to the database's folder as
    /// given and normalised; an absolute stored path (older catalogs) as it is. O(length).
    public func resolved(_ path: String) -> String {
        guard let folder = databaseFolder, !path.hasPrefix("/") else { return path }
        return FileSystemPath.lexicallyNormalized(folder == "." ? path : folder + "/" + path)
    }
}
