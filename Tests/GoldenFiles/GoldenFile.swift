import Foundation
import Testing

/// A committed wire-format golden file in `testdata/wire/`: a test renders a format and
/// checks it against the exact bytes stored there. `GLIMPSE_UPDATE_GOLDEN=1` rewrites the file
/// instead (only for an intended format change; the diff is the review).
public struct GoldenFile: Sendable {
    /// The file's name inside `testdata/wire/`, e.g. `query-page.json`.
    public let name: String
    /// Where the file is (the repository's `testdata/wire/`, found from this source file).
    public let url: URL

    /// The golden file called `name`.
    public init(_ name: String) {
        self.name = name
        url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("testdata/wire").appendingPathComponent(name)
    }

    /// Records an issue at the caller when `text` plus a final newline differs from the file
    /// (or rewrites the file first when `GLIMPSE_UPDATE_GOLDEN=1`).
    /// - Throws: when the file cannot be read or rewritten.
    /// - Complexity: O(file size).
    public func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = text.hasSuffix("\n") ? text : text + "\n"
        if ProcessInfo.processInfo.environment["GLIMPSE_UPDATE_GOLDEN"] == "1" {
            try expected.write(to: url, atomically: true, encoding: .utf8)
        }
        let stored = try String(contentsOf: url, encoding: .utf8)
        #expect(expected == stored, "\(name) differs from the golden file", sourceLocation: sourceLocation)
    }
}
