import Foundation
import Testing

/// `glimpse hash`, run as a user would: the built executable next to the test runner.
@Suite struct HashCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Run { var status: Int32; var out: String; var err: String }

    static func glimpse(_ arguments: [String]) throws -> Run {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glimpse")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "glimpse not built at \(binary.path)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// Bits that differ between two hex strings of equal length.
    static func hexDistance(_ a: String, _ b: String) -> Int {
        zip(a, b).reduce(0) { $0 + ((Int(String($1.0), radix: 16) ?? 0) ^ (Int(String($1.1), radix: 16) ?? 0)).nonzeroBitCount }
    }

    @Test func pdqCSVRowsAreWithinTenBitsOfThePdqhashReference() throws {
        let tsv = try String(contentsOf: Self.root.appendingPathComponent("testdata/pdq/reference.tsv"), encoding: .utf8)
        let refs = tsv.split(separator: "\n").dropFirst().prefix(6).map { $0.split(separator: "\t").map(String.init) }
        let run = try Self.glimpse(["hash", "--algorithm", "pdq"] + refs.map { "testdata/" + $0[0] })
        #expect(run.status == 0)
        #expect(run.err.isEmpty)
        let rows = run.out.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(rows.count == refs.count)
        for (row, ref) in zip(rows, refs) {
            #expect(row.count == 3 && row[0].count == 64)
            #expect(row[2] == "testdata/" + ref[0])
            #expect(row[1] == ref[3], "\(ref[0]) quality")
            #expect(Self.hexDistance(row[0], ref[4]) <= 10, "\(ref[0])")
        }
    }

    @Test func badFilesGetOneStderrLineEachAndExitStatusTwo() throws {
        let run = try Self.glimpse(["hash", "--algorithm", "dhash", "testdata/no-such-file.jpg", "testdata/catalog/animals/lion.jpg",
                                    "testdata/fingerprints/README.md"])
        #expect(run.status == 2)
        let errors = run.err.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors.first?.contains("no-such-file.jpg") == true)
        #expect(errors.last?.contains("README.md") == true)
        let rows = run.out.split(separator: "\n")
        #expect(rows.count == 1)
        #expect(rows.first?.hasSuffix(",testdata/catalog/animals/lion.jpg") == true)
        #expect(rows.first?.split(separator: ",").first?.count == 16)
    }

    @Test func jsonHasEveryField() throws {
        let run = try Self.glimpse(["hash", "--format", "json", "testdata/catalog/food/cherries.jpg"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        for key in ["path", "width", "height", "quality", "informative", "pdq", "ahash", "dhash", "phash", "histogram", "dihedral"] {
            #expect(object[key] != nil, "\(key)")
        }
        #expect((object["histogram"] as? [Any])?.count == 64)
        #expect((object["dihedral"] as? [String: Any])?.count == 8)
    }

    @Test func histogramCSVIs128HexDigits() throws {
        let run = try Self.glimpse(["hash", "--algorithm", "histogram", "testdata/catalog/food/cherries.jpg"])
        #expect(run.status == 0)
        #expect(run.out.split(separator: ",").first?.count == 128)
    }
}
