import Catalog
import Foundation
import GoldenFiles
import Search
import Testing
@testable import Matching

/// The batch-match JSON Lines format (`glimpse match --format jsonl`) against its committed
/// golden file, `testdata/wire/photo-match.jsonl`, like every wire format in
/// `SearchTests/WireFormatGoldenTests`. Regenerate only for an intended format change:
/// `GLIMPSE_UPDATE_GOLDEN=1 swift test --filter PhotoMatchGoldenTests`.
@Suite struct PhotoMatchGoldenTests {
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
        try GoldenFile("photo-match.jsonl").check(text)
        for line in lines { #expect(PhotoMatchRecord(jsonLine: line)?.jsonLine == line) }
    }
}
