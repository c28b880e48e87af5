import Foundation
import GlimpseProcessTesting
import Testing

/// `glimpse eval`, run as the real binary on the bundled sample catalog.
@Suite struct EvalCommandTests {
    /// The `glimpse` executable built beside this test bundle (or `$GLIMPSE_BIN`).
    static var glimpse: URL {
        get throws { URL(fileURLWithPath: try GlimpseExecutable.path ?? { throw GlimpseExecutable.Missing() }()) }
    }

    static var testdata: String {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root.appendingPathComponent("testdata").path
    }

    /// Runs glimpse with `arguments`; returns (exit status, stdout, stderr).
    static func run(_ arguments: [String]) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = try glimpse
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    @Test func jsonReportHasARowPerTransformationAndAnOperatingPoint() throws {
        let (status, out, err) = try Self.run([
            "eval", "--catalog", Self.testdata + "/catalog", "--negatives", Self.testdata + "/negatives",
            "--transformations", "grayscale,jpeg-q75", "--json",
        ])
        #expect(status == 0, "stderr: \(err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["transformation"] as? String } == ["grayscale", "jpeg-q75"])
        for row in rows {
            let recall = try #require(row["recall_at_1"] as? Double)
            #expect(recall > 0.9, "\(row)")
        }
        let point = try #require(object["operating_point"] as? [String: Any])
        #expect(point["negatives"] as? Int == 28 * 3)
    }

    @Test func tableIsPrintedByDefault() throws {
        let (status, out, _) = try Self.run(["eval", "--catalog", Self.testdata + "/catalog", "--transformations", "blur"])
        #expect(status == 0)
        #expect(out.contains("| transformation | queries | recall@1 |"))
        #expect(out.contains("| blur | 46 |"))
    }

    @Test func badInputIsOneLineOnStderrWithStatusOne() throws {
        let (missing, _, missingErr) = try Self.run(["eval", "--catalog", "/nonexistent/catalog"])
        #expect(missing == 1)
        #expect(missingErr == "glimpse: /nonexistent/catalog: cannot list folder: not a directory\n")
        let (unknown, _, unknownErr) = try Self.run(["eval", "--catalog", Self.testdata + "/catalog", "--transformations", "sepia"])
        #expect(unknown == 1)
        #expect(unknownErr.hasPrefix("glimpse: eval: unknown transformation 'sepia'"))
    }
}
