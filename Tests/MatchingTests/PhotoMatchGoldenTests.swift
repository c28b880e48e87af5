import Catalog
import Foundation
import Search
import Testing
@testable import Matching

/// The batch-match JSON Lines format (`glimpse match --format jsonl`) against its committed
/// golden file, `testdata/wire/photo-match.jsonl`, like every wire format in
/// `SearchTests/WireFormatGoldenTests`. Regenerate only for an intended format change:
/// `GLIMPSE_UPDATE_GOLDEN=1 swift test --filter PhotoMatchGoldenTests`.
@Suite struct PhotoMatchGoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/wire/photo-match.jsonl")

    static let rows = [
        SearchResultRow(kind: .landmark, id: "landmarks/hurricane-ridge", title: "Hurricane Ridge", subtitle: "North America",
                        score: 0.662_448, url: "glimpse://landmark/landmarks%2Fhurricane-ridge"),
    ]

    @Test func batchMatchLinesEqualTheGoldenFileAndRoundTrip() throws {
        let lines = [
            PhotoMatchRecord.matches([Self.rows[0]], photo: "photos/a, \"b\".jpg").jsonLine,
            PhotoMatchRecord.matches([], photo: "photos/flat.png").jsonLine,
            PhotoMatchRecord.failure("photos/bad.jpg: truncated JPEG file: premature end", photo: "photos/bad.jpg").jsonLine,
        ]
        let text = lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["GLIMPSE_UPDATE_GOLDEN"] == "1" {
            try text.write(to: Self.golden, atomically: true, encoding: .utf8)
        }
        #expect(text == (try String(contentsOf: Self.golden, encoding: .utf8)), "photo-match.jsonl differs from the golden file")
        for line in lines { #expect(PhotoMatchRecord(jsonLine: line)?.jsonLine == line) }
    }
}
