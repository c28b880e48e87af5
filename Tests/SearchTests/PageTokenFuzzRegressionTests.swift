import Foundation
import Testing
@testable import Search

/// Replays the page-token fuzzer's checks (``PageTokenFuzzInput``) on inputs it once
/// failed on (`testdata/fuzz-regressions/pagetoken/`, empty so far) and on a few fixed
/// shapes, so the fuzz harness itself stays compiled and correct.
@Suite struct PageTokenFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("testdata/fuzz-regressions/pagetoken")

    static var savedInputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func savedInputsPass() throws {
        for name in Self.savedInputs {
            let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
            let violation = PageTokenFuzzInput.run(bytes)
            #expect(violation == nil, "\(name): \(violation ?? "")")
        }
    }

    @Test(arguments: [
        "", "A", "not a token!", "AQAAAAAKAAAA", String(repeating: "A", count: 60), String(repeating: "_", count: 1000),
        "AQ==", "\u{0}\u{1}\u{2}", "é🙂",
    ])
    func fixedShapesPass(_ text: String) {
        #expect(PageTokenFuzzInput.run(Array(text.utf8)) == nil)
    }

    @Test func fieldExtremesPass() {
        for fill: UInt8 in [0, 0x7F, 0x80, 0xFF] {
            #expect(PageTokenFuzzInput.run([UInt8](repeating: fill, count: 30)) == nil)
        }
    }
}
