import ArgumentParser
import Foundation
import PixelBuffers
import Search

/// `--db PATH`: the catalog database every command works on.
struct DatabaseOption: ParsableArguments {
    /// The default database file, in the current folder.
    static let defaultPath = "glimpse.sqlite"

    @Option(name: .customLong("db"), help: ArgumentHelp("The catalog database file.", valueName: "path"))
    var path: String = DatabaseOption.defaultPath

    /// Opens the catalog, creating it when missing (for `index`).
    func openOrCreate() throws -> SQLiteEntityStore {
        try refuseNonRegularFile()
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

    /// Refuses a `--db` that exists but is not a regular file (a folder, a FIFO: SQLite
    /// would block on a FIFO), before SQLite opens it.
    private func refuseNonRegularFile() throws {
        guard DirectoryListing.exists(path) else { return }
        if case .failure(let reason) = FileBytes.regularFileStatus(path) {
            throw failure("\(path): not a catalog database: \(reason)")
        }
    }

    /// Reports `error` as the command's one line: when it is (or wraps) a catalog
    /// database error that does not name the database file (a malformed page met while
    /// reading, a corrupt stored fingerprint), the line starts with `--db`'s path.
    func storeFailure(_ error: some Error & CustomStringConvertible) -> ExitCode {
        let message = error.description
        guard let storeError = Self.storeError(in: error), !message.hasPrefix(path + ":") else { return failure(message) }
        switch storeError {
        case .database, .corruptFingerprint: return failure("\(path): \(message)")
        case .cannotOpen, .unknownEntity: return failure(message)
        }
    }

    /// The ``CatalogStoreError`` inside `value` (itself, or an associated value a few
    /// levels down: `VisualSearchError.store(…)`, `BatchMatchError.search(.store(…))`).
    private static func storeError(in value: Any, depth: Int = 0) -> CatalogStoreError? {
        if let error = value as? CatalogStoreError { return error }
        guard depth < 4 else { return nil }
        for child in Mirror(reflecting: value).children {
            if let found = storeError(in: child.value, depth: depth + 1) { return found }
        }
        return nil
    }

    /// The visual-index snapshot beside the catalog (`PATH.vindex`).
    var snapshotPath: String? { VisualIndexSnapshot.path(forCatalogAt: path) }

    /// `--db PATH` when it is not the default, for commands printed back to the user.
    var arguments: [String] { path == Self.defaultPath ? [] : ["--db", path] }
}

/// Quotes `argument` for a POSIX shell when it needs it; raw bytes of a file name that
/// is not UTF-8 and control characters are written as bash `$'…\xHH…'` escapes.
func shellQuoted(_ argument: String) -> String {
    let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./,=:@%+")
    guard argument.isEmpty || !argument.allSatisfy(safe.contains) else { return argument }
    let bytes = FileSystemPath.fileSystemBytes(argument)
    if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) || FileSystemPath.displayName(argument, escapingControlCharacters: false) != argument {
        // Every byte that is not plain printable ASCII as \xHH (valid UTF-8 text too).
        let body = bytes.map { byte -> String in
            switch byte {
            case 0x27: return "\\'"
            case 0x5C: return "\\\\"
            case 0x20..<0x7F: return String(UnicodeScalar(byte))
            default: return "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }.joined()
        return "$'" + body + "'"
    }
    return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
