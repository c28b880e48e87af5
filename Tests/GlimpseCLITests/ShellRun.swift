import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a `/bin/sh` script against the real `glimpse` binary, with a time limit: for file
/// names that are not UTF-8 (`printf 'bad\377name.jpg'` makes the bytes, which `Process`
/// arguments, being `String`s, cannot carry), FIFOs that must never block, and runs as an
/// unprivileged user (so that `chmod 000` means something when the tests run as root).
enum ShellRun {
    /// What the script printed, how it ended, and whether the time limit killed it.
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var timedOut: Bool
        var errorLines: [String] { stderr.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
        var description: String { "exit \(status)\(timedOut ? " (killed after the time limit)" : ""), stdout: \(stdout.prefix(800)), stderr: \(stderr.prefix(800))" }
    }

    /// Runs `script` in `directory` with `$GLIMPSE` set to the binary (or, with
    /// `unprivileged` while root, to a wrapper that runs it as `nobody`); kills the whole
    /// process group after `timeout` seconds.
    static func run(_ script: String, in directory: String, timeout: Double = 30, unprivileged: Bool = false) throws -> Result {
        guard let binary = Glimpse.binary else { throw Glimpse.MissingBinary() }
        var glimpse = binary
        if unprivileged && geteuid() == 0 {
            glimpse = "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \(binary)"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "GLIMPSE=\"$0\"; " + script, glimpse]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let outFile = directory + "/.stdout-\(UUID().uuidString)"
        let errFile = directory + "/.stderr-\(UUID().uuidString)"
        FileManager.default.createFile(atPath: outFile, contents: nil)
        FileManager.default.createFile(atPath: errFile, contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: outFile)
            try? FileManager.default.removeItem(atPath: errFile)
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outFile))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errFile))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                // What the shell started (while it is still their parent), then the shell.
                if let killer = try? Process.run(URL(fileURLWithPath: "/usr/bin/pkill"), arguments: ["-KILL", "-P", String(pid)]) {
                    killer.waitUntilExit()
                }
                kill(pid, SIGKILL)
                break
            }
            usleep(20_000)
        }
        process.waitUntilExit()
        let out = (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errFile, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, stdout: out, stderr: err, timedOut: timedOut)
    }

    /// A scratch folder every user can write (for unprivileged runs).
    static func sharedScratchFolder(_ name: String) throws -> String {
        let folder = try Glimpse.scratchFolder(name)
        chmod(folder, 0o777)
        return folder
    }

    /// Copies a `testdata/` file to `destination` (inside a scratch folder).
    static func copy(_ testdata: String, to destination: String) throws {
        let url = URL(fileURLWithPath: destination)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Glimpse.testdata(testdata), toPath: destination)
    }
}
