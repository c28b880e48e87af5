import ArgumentParser
import Foundation
import Search

/// `--db PATH`: the catalog database every command works on.
struct DatabaseOption: ParsableArguments {
    /// The default database file, in the current folder.
    static let defaultPath = "glimpse.sqlite"

    @Option(name: .customLong("db"), help: ArgumentHelp("The catalog database file.", valueName: "path"))
    var path: String = DatabaseOption.defaultPath

    /// Opens the catalog, creating it when missing (for `index`).
    func openOrCreate() throws -> SQLiteEntityStore {
        do { return try SQLiteEntityStore(path: path) } catch { throw failure(error.description) }
    }

    /// Opens an existing catalog; a missing file is an input error that says how to make one.
    func openExisting() throws -> SQLiteEntityStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw failure("\(path): no catalog database here; build one with 'glimpse index SOURCE --db \(path)'")
        }
        return try openOrCreate()
    }

    /// The visual-index snapshot beside the catalog (`PATH.vindex`).
    var snapshotPath: String? { VisualIndexSnapshot.path(forCatalogAt: path) }

    /// `--db PATH` when it is not the default, for commands printed back to the user.
    var arguments: [String] { path == Self.defaultPath ? [] : ["--db", path] }
}

/// Quotes `argument` for a POSIX shell when it needs it.
func shellQuoted(_ argument: String) -> String {
    let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./,=:@%+")
    guard argument.isEmpty || !argument.allSatisfy(safe.contains) else { return argument }
    return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
