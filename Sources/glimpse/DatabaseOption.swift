import ArgumentParser
import CatalogStores
import Foundation
import Search

/// `--db PATH|URL`: the catalog every command works on. A plain path is an SQLite file; a
/// `postgres://user@host:port/dbname` URL is a shared PostgreSQL catalog. Without `--db`,
/// `GLIMPSE_DATABASE_URL` names it, else `glimpse.sqlite` in the current folder.
///
/// Only `index` (``openOrCreate()``) and `catalog remove|undo` (``openForChange()``) may
/// create or migrate a catalog; every other command opens it read-only (``openExisting()``).
struct DatabaseOption: ParsableArguments {
    /// The default database file, in the current folder.
    static let defaultPath = "glimpse.sqlite"
    /// The environment variable naming the catalog when `--db` is not given.
    static let environmentVariable = "GLIMPSE_DATABASE_URL"

    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The catalog: an SQLite file, or postgres://user@host:port/dbname (default: $GLIMPSE_DATABASE_URL, else glimpse.sqlite).",
        valueName: "path|url"))
    var location: String?

    /// What the catalog is, as given (`--db`, the environment, or the default).
    var path: String {
        if let location { return location }
        if let fromEnvironment = ProcessInfo.processInfo.environment[Self.environmentVariable], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return Self.defaultPath
    }

    /// The parsed location.
    var catalogLocation: CatalogLocation { CatalogLocation(path) }

    /// Opens the catalog for `index`: creating it when missing, migrating it.
    func openOrCreate() async throws -> any EntityStore {
        try await open(.readWrite)
    }

    /// Opens an existing catalog for a change (`catalog remove|undo`): migrating it, never
    /// creating it.
    func openForChange() async throws -> any EntityStore {
        try requireExistingFile()
        return try await open(.readWrite)
    }

    /// Opens an existing catalog read-only: nothing is written, a file that is not a
    /// Glimpse catalog (or of a newer schema) is refused, a read-only file works.
    func openExisting() async throws -> any EntityStore {
        try requireExistingFile()
        return try await open(.readOnly)
    }

    private func open(_ mode: CatalogAccessMode) async throws -> any EntityStore {
        do { return try await CatalogStores.open(catalogLocation, mode: mode) } catch { throw failure(error.description) }
    }

    /// A missing SQLite file is an input error that says how to make one.
    private func requireExistingFile() throws {
        guard case .sqlite(let path) = catalogLocation else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw failure("\(path): no catalog database here; build one with 'glimpse index SOURCE --db \(path)'")
        }
    }

    /// `--db PATH` when it is not the default, for commands printed back to the user.
    var arguments: [String] { location.map { ["--db", $0] } ?? [] }
}

/// Quotes `argument` for a POSIX shell when it needs it.
func shellQuoted(_ argument: String) -> String {
    let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./,=:@%+")
    guard argument.isEmpty || !argument.allSatisfy(safe.contains) else { return argument }
    return "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
