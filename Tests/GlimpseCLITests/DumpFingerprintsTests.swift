import Foundation
import Testing

/// `glimpse debug-dump-fingerprints`: every byte of the catalog and query fingerprints, the
/// tool that proves two builds or two instruction sets bit-identical. Here: every path this
/// machine has (GLIMPSE_ISA caps the process) prints the same bytes for real photos, a PNG
/// screenshot, a WebP, and images small enough to need no resample.
@Suite struct DumpFingerprintsTests {
    static let files = ["testdata/catalog/animals/lion.jpg", "testdata/catalog/animals/capybara.jpg",
                        "testdata/samples/screenshot-hurricane-ridge.png", "testdata/jpeg/testorig.jpg",
                        "testdata/fingerprints/cherries-half-q75.jpg", "testdata/webp/catalog-apricot.webp"]

    static func dump(isa: String?) throws -> (status: Int32, out: String) {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("glimpse")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "glimpse not built at \(binary.path)")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["debug-dump-fingerprints"] + files
        process.currentDirectoryURL = HashCommandTests.root
        var environment = ProcessInfo.processInfo.environment
        environment["GLIMPSE_ISA"] = isa
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func everyInstructionSetPrintsTheSameFingerprintBytes() throws {
        let best = try Self.dump(isa: nil)
        #expect(best.status == 0)
        let lines = best.out.split(separator: "\n")
        #expect(lines.count == Self.files.count * 5, "five routes per file")
        #expect(!best.out.contains("\terror\t"))
        // Catalog layout: 31 views of 137 bytes after a 5-byte header, as hex.
        let catalog = lines.first { $0.split(separator: "\t")[1] == "catalog-file" }
        #expect(catalog?.split(separator: "\t")[2].count == 2 * (5 + 31 * 137))
        for isa in ["avx2", "portable"] {
            let other = try Self.dump(isa: isa)
            #expect(other.status == 0)
            #expect(other.out == best.out, "GLIMPSE_ISA=\(isa)")
        }
    }
}
