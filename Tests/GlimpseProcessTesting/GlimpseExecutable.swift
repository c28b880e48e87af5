import Foundation

/// The built `glimpse` executable and the repository's test data, for tests that run the real
/// program; never shipped.
public enum GlimpseExecutable {
    /// The repository root (from this file's path).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A path inside `testdata/`.
    /// - Complexity: O(1).
    public static func testdata(_ relative: String) -> String { root.appendingPathComponent("testdata/\(relative)").path }

    /// The built executable: `$GLIMPSE_BIN` if set, else `glimpse` in the build products folder
    /// that holds the running test bundle (`swift build` / `swift test` build it there); nil
    /// when neither exists.
    public static let path: String? = {
        if let override = ProcessInfo.processInfo.environment["GLIMPSE_BIN"] { return override }
        var candidates: [URL] = [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()]
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            candidates.append(URL(fileURLWithPath: bundle.bundlePath).deletingLastPathComponent())
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for folder in candidates {
            var url = folder
            // Walk up out of an .xctest bundle on platforms that make it a folder.
            for _ in 0..<4 {
                let candidate = url.appendingPathComponent("glimpse").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                url = url.deletingLastPathComponent()
            }
        }
        return nil
    }()

    /// ``path``, or a placeholder naming the missing build, for a spawn that then fails with a
    /// clear message.
    public static var pathOrPlaceholder: String { path ?? "glimpse (not built: run swift build)" }

    /// Why a test that needs the executable cannot run.
    public struct Missing: Error, CustomStringConvertible {
        /// The error (no fields: what is missing is always the executable).
        public init() {}
        public var description: String {
            "the glimpse executable was not found next to the test bundle; run 'swift build --product glimpse' first or set GLIMPSE_BIN"
        }
    }

    /// A failed run of the executable, with what it printed.
    public struct RunFailed: Error, CustomStringConvertible {
        /// What failed and what the program printed on stderr.
        public var description: String
    }

    /// Runs `glimpse arguments…` to its end and returns its standard output.
    /// - Throws: ``Missing``, or ``RunFailed`` when it exits non-zero.
    /// - Complexity: the program's.
    public static func run(_ arguments: [String]) throws -> String {
        guard let path else { throw Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read stderr on its own thread so a full pipe never blocks the child.
        let errorText = LockedText()
        let reader = Thread { errorText.set(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)) }
        reader.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
            throw RunFailed(description: "glimpse \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(errorText.get())")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A new empty scratch folder under the temporary directory.
    /// - Complexity: O(1).
    public static func scratchFolder(_ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}

/// Text handed from a reader thread.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ value: String) { lock.withLock { text = value } }
    func get() -> String { lock.withLock { text } }
}
