import Foundation
import GRDB
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Only `index` and `catalog remove|undo` create or migrate a catalog; every other command
/// opens it read-only, refuses what is not a Glimpse catalog with one line naming the file,
/// and works on a catalog it may not write (issue 13, item 4).
@Suite("read-only catalogs")
struct ReadOnlyCatalogTests {
    /// Runs `glimpse arguments…` as an unprivileged user when the tests run as root (root
    /// ignores file modes, so a mode-444 file would not stop it), as is otherwise.
    /// The checkout may sit in a folder only its owner can enter (`git clone . "$(mktemp -d)"`
    /// makes a mode-700 one), so the unprivileged user runs a world-readable copy of the
    /// binary and reads world-readable copies of the images (``unprivilegedFood``).
    static let unprivilegedCopies: Result<(binary: String, food: String), any Error> = Result {
        let folder = try Glimpse.scratchFolder("unprivileged")
        let binary = folder + "/glimpse", food = folder + "/food"
        guard let built = Glimpse.binary else { throw CocoaError(.fileNoSuchFile) }
        // Copied by a `cp` process, not in this one: while this process held the copy open
        // for writing, a process spawned by another test meanwhile inherited that descriptor
        // and kept it for its whole life, and executing the copy then failed with "Text file
        // busy" (ETXTBSY; seen in a clean-clone CI run).
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [built, binary]
        try copy.run()
        copy.waitUntilExit()
        guard copy.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        try FileManager.default.copyItem(atPath: Glimpse.testdata("catalog/food"), toPath: food)
        for path in [folder, binary, food] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: food) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: food + "/" + name)
        }
        return (binary, food)
    }

    static func runUnprivileged(_ arguments: [String]) throws -> Glimpse.Run {
        guard getuid() == 0 else { return try Glimpse.run(arguments) }
        let binary = try unprivilegedCopies.get().binary
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        process.arguments = ["-u", "nobody", "--", binary] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Glimpse.Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static let readCommands: [[String]] = readCommands(food: Glimpse.testdata("catalog/food"))

    /// Every read-only command, with its images in `food` (a copy of testdata/catalog/food).
    static func readCommands(food: String) -> [[String]] {
        [["catalog", "list"], ["catalog", "list", "--removed"], ["open", "landmark:food/apricot"],
         ["query", food + "/apricot.jpg"], ["match", food]]
    }

    @Test func anotherProgramsSQLiteFileIsRefusedByEveryCommandAndLeftUntouched() throws {
        let path = try Glimpse.scratchFolder("foreign") + "/other.sqlite"
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine')") }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for command in Self.readCommands + [["catalog", "undo"], ["catalog", "remove", "landmark:x", "--delete"], ["index", Glimpse.testdata("catalog/manifest.json")]] {
            let run = try Glimpse.run(command + ["--db", path])
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.errorLines == ["glimpse: \(path): not a Glimpse catalog (an SQLite database of another program (tables: notes)); nothing was changed"], "\(command)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let tables = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(tables == ["notes"])
    }

    @Test func anEmptyFileIsRefusedByReadCommandsAndStaysEmpty() throws {
        let path = try Glimpse.scratchFolder("empty") + "/empty.sqlite"
        FileManager.default.createFile(atPath: path, contents: Data())
        for command in Self.readCommands {
            let run = try Glimpse.run(command + ["--db", path])
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.errorLines == ["glimpse: \(path): not a Glimpse catalog (the file is empty); nothing was changed"], "\(command)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber == 0)
    }

    @Test func aCatalogOfANewerSchemaIsRefused() throws {
        let db = try Glimpse.copyOfSampleCatalog()
        try DatabaseQueue(path: db).write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-from-the-future')") }
        for command in Self.readCommands + [["catalog", "undo"]] {
            let run = try Glimpse.run(command + ["--db", db])
            #expect(run.status == 1)
            #expect(run.errorLines.first?.contains("\(db): this catalog was written by a newer Glimpse") == true, "\(command): \(run.stderr)")
        }
    }

    /// Mode 444 in a mode-555 folder, read by an unprivileged user: SQLite cannot create
    /// the WAL's shared memory there, so the store opens the file immutable.
    @Test func aReadOnlyCatalogCanBeQueriedListedOpenedAndMatched() throws {
        let folder = try Glimpse.scratchFolder("readonly")
        let db = folder + "/catalog.sqlite"
        let indexing = try Glimpse.run(["index", Glimpse.testdata("catalog/manifest.json"), "--db", db])
        try #require(indexing.status == 0, "\(indexing.stderr)")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let food = getuid() == 0 ? try Self.unprivilegedCopies.get().food : Glimpse.testdata("catalog/food")
        for command in Self.readCommands(food: food) {
            let run = try Self.runUnprivileged(command + ["--db", db])
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(!run.stderr.contains("readonly"), "\(command): \(run.stderr)")
        }
        let list = try Self.runUnprivileged(["catalog", "list", "--db", db])
        #expect(list.stdout.contains("glimpse://landmark/food%2Fapricot"))
        // Changing it says why it cannot, in one line.
        let remove = try Self.runUnprivileged(["catalog", "remove", "landmark:food/apricot", "--delete", "--db", db])
        #expect(remove.status == 1 && remove.errorLines.count == 1, "\(remove.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }

    /// `chattr +i` (when the file system and privileges allow it): not even root may write.
    @Test func anImmutableCatalogCanBeQueried() throws {
        let db = try Glimpse.copyOfSampleCatalog()
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        let chattr = Process()
        chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        chattr.arguments = ["+i", db]
        chattr.standardError = FileHandle.nullDevice
        guard (try? chattr.run()) != nil else { return }
        chattr.waitUntilExit()
        // The file system (overlay, tmpfs) or the container may not support it: nothing to test then.
        guard chattr.terminationStatus == 0 else { return }
        defer {
            let undo = Process()
            undo.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            undo.arguments = ["-i", db]
            try? undo.run()
            undo.waitUntilExit()
        }
        for command in Self.readCommands {
            let run = try Glimpse.run(command + ["--db", db])
            #expect(run.status == 0, "\(command): \(run.stderr)")
        }
    }
}
