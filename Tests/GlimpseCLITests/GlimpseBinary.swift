import Foundation
import GlimpseProcessTesting
import Testing

/// Runs the real `glimpse` executable built next to the test bundle, on real files in
/// `testdata/`.
enum Glimpse {
    /// The repository root (from this file's path).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A path inside `testdata/`.
    static func testdata(_ relative: String) -> String { root.appendingPathComponent("testdata/\(relative)").path }

    /// The built executable (`$GLIMPSE_BIN`, or `glimpse` beside the test bundle).
    static let binary: String? = GlimpseExecutable.path

    /// What a run printed and how it ended.
    struct Run: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Non-empty stderr lines.
        var errorLines: [String] { stderr.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
    }

    /// Runs `glimpse arguments…` in `directory` (default: a scratch folder) and waits.
    static func run(_ arguments: [String], in directory: String? = nil, stdin: String? = nil) throws -> Run {
        guard let binary else {
            throw MissingBinary()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe never blocks the child.
        let errBox = DataBox()
        let done = DispatchSemaphore(value: 0)
        let errThread = Thread {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        errThread.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                   stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Bytes handed from the reader thread (written before the semaphore signals).
    private final class DataBox: @unchecked Sendable {
        var data = Data()
    }

    struct MissingBinary: Error, CustomStringConvertible {
        var description: String {
            "the glimpse executable was not found next to the test bundle; run 'swift build --product glimpse' first or set GLIMPSE_BIN"
        }
    }

    /// A new empty scratch folder.
    static func scratchFolder(_ name: String = "cli") throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The sample catalog indexed once per test run (testdata/catalog/manifest.json), shared
    /// read-only by tests that do not change it.
    static let sampleCatalog: Result<String, any Error> = Result {
        let folder = try scratchFolder("catalog")
        let db = folder + "/catalog.sqlite"
        let indexing = try Glimpse.run(["index", testdata("catalog/manifest.json"), "--db", db])
        guard indexing.status == 0 else { throw IndexFailed(run: indexing) }
        return db
    }

    /// A private copy of the indexed sample catalog, for tests that change it.
    static func copyOfSampleCatalog() throws -> String {
        let source = try sampleCatalog.get()
        let db = try scratchFolder("copy") + "/catalog.sqlite"
        // The catalog is in WAL mode: checkpointed by the indexing process's close.
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: db + suffix)
        }
        return db
    }

    struct IndexFailed: Error, CustomStringConvertible {
        var run: Run
        var description: String { "indexing the sample catalog failed (exit \(run.status)): \(run.stderr)" }
    }
}
