import Catalog
import Foundation
import Testing

/// The one text form of a list column (keywords, a removal's entity URLs) in both stores.
@Suite struct StoredStringListTests {
    @Test func anyStringsRoundTripAsAJSONArray() throws {
        let values = ["plain", "quote \" and \\ backslash", "line\nbreak\ttab\r", "\u{1}\u{1F}", "snow ❄️ Zürich", "", "glimpse://landmark/a%2Fb"]
        let text = StoredStringList.text(values)
        #expect(try StoredStringList.values(text, column: "test") == values)
        #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == values, "any JSON reader reads it")
        #expect(StoredStringList.text([]) == "[]")
        #expect(StoredStringList.text(["a", "b"]) == #"["a","b"]"#)
    }

    @Test func aDamagedColumnIsAnErrorNamingItNotAnEmptyList() {
        for damaged in ["", "[", "{\"a\":1}", "[1,2]", "not json"] {
            #expect(throws: StoredStringList.DamagedColumn(column: "keywords of landmark x")) {
                try StoredStringList.values(damaged, column: "keywords of landmark x")
            }
        }
        #expect(StoredStringList.DamagedColumn(column: "keywords of landmark x").description
            == "keywords of landmark x is not a JSON array of strings: the catalog database is damaged")
    }
}
