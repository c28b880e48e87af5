import ArgumentParser
import Foundation
import PixelBuffers

/// Exit statuses of the `glimpse` command, as documented in `--help` and the README.
enum ExitStatus: Int32 {
    /// Everything succeeded.
    case success = 0
    /// Bad usage or bad input (unreadable file, corrupt image, unknown id…).
    case inputError = 1
    /// The command ran but some files failed.
    case someFilesFailed = 2
    /// No match was found where one was required.
    case noMatch = 3
    /// A deadline cut the work short before anything was found: not a "no match".
    case partialNothingFound = 4
}

/// Writes one line to standard error: file names that are not UTF-8 show their bytes as
/// `\xHH` and control characters are escaped, so a message is always one line.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((FileSystemPath.displayName(message) + "\n").utf8))
}

/// `path` as shown to people (raw bytes as `\xHH`, control characters escaped).
func shown(_ path: String) -> String {
    FileSystemPath.displayName(path)
}

/// Reports `message` as the single line on stderr and returns the error that makes
/// ArgumentParser exit with `status` without printing anything else.
func failure(_ message: String, status: ExitStatus = .inputError) -> ExitCode {
    printError("glimpse: \(message)")
    return ExitCode(status.rawValue)
}
