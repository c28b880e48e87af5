import ArgumentParser
import Foundation

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
}

/// Writes one line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Reports `message` as the single line on stderr and returns the error that makes
/// ArgumentParser exit with `status` without printing anything else.
func failure(_ message: String, status: ExitStatus = .inputError) -> ExitCode {
    printError("glimpse: \(message)")
    return ExitCode(status.rawValue)
}
