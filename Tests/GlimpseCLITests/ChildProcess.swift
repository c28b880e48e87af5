import Foundation
import GlimpseProcessTesting
#if canImport(Glibc)
import Glibc
#endif

/// What a child process did: how it ended, what it printed, and what it cost.
struct ChildRun: CustomStringConvertible {
    /// Exit status, or nil when a signal ended it.
    var exitStatus: Int32?
    /// The signal that ended it, if any.
    var signal: Int32?
    var standardOutput: String
    var standardError: String
    /// Peak resident set size of the program alone, in bytes (0 unless measured: see
    /// ``ChildProcess/run(_:_:killAfter:measuringMemory:)``).
    var maxResidentBytes: Int
    /// Wall-clock time from spawn to exit, in seconds.
    var seconds: Double

    var maxResidentMegabytes: Double { Double(maxResidentBytes) / 1_048_576 }

    var description: String {
        let end = exitStatus.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
        return "\(end), \(String(format: "%.3f", seconds)) s, max RSS \(String(format: "%.1f", maxResidentMegabytes)) MB, stderr: \(standardError.prefix(300))"
    }
}

/// Spawns a program with `posix_spawn` and reaps it with `wait4`.
///
/// Peak memory: a process's `ru_maxrss` only ever grows, so it is measured in a fresh
/// process, not in the test runner. And on Linux a spawned child's `ru_maxrss` starts at
/// its parent's (exec keeps the high-water mark of the address space it replaces), so a
/// child spawned straight from the runner would report the runner's size; measured runs
/// therefore go through the small `PeakRSS` helper (Tests/PeakRSS), which forks the
/// program itself and reports the program's own `ru_maxrss` from `wait4`.
enum ChildProcess {
    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `executable` with `arguments`; with `killAfter`, sends SIGKILL after that
    /// many seconds unless it has already exited; with `measuringMemory`, through the
    /// PeakRSS helper (not with `killAfter`). Output goes through temporary files.
    static func run(_ executable: String, _ arguments: [String], killAfter: Double? = nil,
                    measuringMemory: Bool = false) throws -> ChildRun {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("glimpse-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let reportPath = scratch.appendingPathComponent("peak-rss").path
        var command = [executable] + arguments
        if measuringMemory {
            precondition(killAfter == nil, "a killed run has no memory report")
            guard FileManager.default.isExecutableFile(atPath: PeakRSSHelper.path) else {
                throw SpawnError(description: "the PeakRSS helper is not built: \(PeakRSSHelper.path)")
            }
            command = [PeakRSSHelper.path, reportPath] + command
        }
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = DispatchTime.now()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw SpawnError(description: "cannot run \(command[0]): \(String(cString: strerror(spawned)))") }

        var status: Int32 = 0
        var usage = rusage()
        if let killAfter {
            // Poll so a child that finishes early is reaped, not killed.
            let deadline = start.uptimeNanoseconds + UInt64(killAfter * 1e9)
            while true {
                let reaped = wait4(pid, &status, WNOHANG, &usage)
                if reaped == pid { break }
                if DispatchTime.now().uptimeNanoseconds >= deadline {
                    kill(pid, SIGKILL)
                    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
                    break
                }
                usleep(1000)
            }
        } else {
            while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let exited = (status & 0x7F) == 0
        var run = ChildRun(
            exitStatus: exited ? (status >> 8) & 0xFF : nil, signal: exited ? nil : status & 0x7F,
            standardOutput: readText(outPath), standardError: readText(errPath),
            maxResidentBytes: 0, seconds: seconds)
        if measuringMemory {
            let report = readText(reportPath)
            guard run.exitStatus == 0, !report.isEmpty else {
                throw SpawnError(description: "the PeakRSS helper failed: \(run)")
            }
            run.exitStatus = nil
            for line in report.split(separator: "\n") {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let value = Int(parts[1]) else { continue }
                switch parts[0] {
                case "exit": run.exitStatus = Int32(value)
                case "signal": run.signal = Int32(value)
                case "maxrss_kb": run.maxResidentBytes = value * 1024
                default: break
                }
            }
        }
        return run
    }

    /// A file's text, "" if unreadable. Through FileHandle: `String(contentsOfFile:)` leaks
    /// 4 KiB for an empty file (swift-foundation 6.3), which LeakSanitizer reports.
    static func readText(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        return String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self)
    }
}

/// The PeakRSS helper, built next to `glimpse`.
enum PeakRSSHelper {
    static var path: String {
        URL(fileURLWithPath: GlimpseExecutable.pathOrPlaceholder).deletingLastPathComponent().appendingPathComponent("PeakRSS").path
    }
}
