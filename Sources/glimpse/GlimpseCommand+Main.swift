import ArgumentParser
import Foundation
import PixelBuffers

extension GlimpseCommand {
    /// Runs the command line with the documented exit codes: usage errors exit 1 (not
    /// ArgumentParser's 64) with one line on stderr; `--help` and `--version` print and
    /// exit 0; failures raised with ``failure(_:status:)`` have already printed their line.
    static func main() async {
        MemoryTuning.apply()
        do {
            var command = try parseAsRoot(rawArguments())
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            exit(withError: code)
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            printError("glimpse: \(message) (see 'glimpse help')")
            exit(withError: ExitCode(ExitStatus.inputError.rawValue))
        }
    }

    /// The arguments from the raw `argv` bytes: a file name that is not UTF-8 keeps its
    /// bytes (``FileSystemPath``); `CommandLine.arguments` would replace them with U+FFFD.
    static func rawArguments() -> [String] {
        (1..<max(1, Int(CommandLine.argc))).compactMap { index in
            CommandLine.unsafeArgv[index].map { argument in
                FileSystemPath.string(fromFileSystemBytes: UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) })
            }
        }
    }
}
