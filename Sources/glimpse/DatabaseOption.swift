import ArgumentParser
import Catalog
import CatalogStores
import Foundation
import Matching
import PixelBuffers
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

    /// Opens the catalog for `index`: creating it when missing (a PostgreSQL catalog with
    /// `partitionCount` partitions, default 1), migrating it.
    func openOrCreate(partitionCount: Int? = nil) async throws -> any EntityStore {
        try refuseNonRegularFile()
        return try await open(.readWrite, partitionCount: partitionCount)
    }

    /// Opens an existing catalog read-only: nothing is written, a file that is not a
    /// Glimpse catalog (or of a newer schema) is refused, a read-only file works.
    /// With `partition`, the store loads that partition's fingerprints only (`serve --partition`).
    func openExisting(partition: CatalogPartition? = nil) async throws -> any EntityStore {
        try requireExistingFile()
        return try await open(.readOnly, partition: partition)
    }

    /// Opens an existing catalog for a change (`catalog remove|undo`, `serve
    /// --admin-token-file`): migrating it, never creating it; reading only `partition`'s
    /// fingerprints when given.
    func openForChange(partition: CatalogPartition? = nil) async throws -> any EntityStore {
        try requireExistingFile()
        return try await open(.readWrite, partition: partition)
    }

    private func open(_ mode: CatalogAccessMode, partitionCount: Int? = nil, partition: CatalogPartition? = nil) async throws -> any EntityStore {
        do {
            return try await CatalogStores.open(catalogLocation, mode: mode, partitionCount: partitionCount, partition: partition)
        } catch { throw failure(error.description) }
    }

    /// A missing SQLite file is an input error that says how to make one.
    private func requireExistingFile() throws {
        guard case .sqlite(let path) = catalogLocation else { return }
        try refuseNonRegularFile()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw failure("\(path): no catalog database here; build one with 'glimpse index SOURCE --db \(path)'")
        }
    }

    /// Refuses a `--db` that exists but is not a regular file (a folder, a FIFO: SQLite
    /// would block on a FIFO), before SQLite opens it.
    private func refuseNonRegularFile() throws {
        guard case .sqlite(let path) = catalogLocation, DirectoryListing.exists(path) else { return }
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
        case .cannotOpen, .notACatalog, .newerSchema, .readOnly, .unknownEntity: return failure(message)
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

    /// The visual-index snapshot beside an SQLite catalog (`PATH.vindex`); none for a
    /// PostgreSQL catalog (each replica builds its index from the database in bulk).
    var snapshotPath: String? {
        guard case .sqlite(let path) = catalogLocation else { return nil }
        return VisualIndexSnapshot.path(forCatalogAt: path)
    }

    /// `--db PATH` when it is not the default, for commands printed back to the user.
    var arguments: [String] { location.map { ["--db", $0] } ?? [] }
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
