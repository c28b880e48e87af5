import Foundation
import Testing
@testable import PixelBuffers

/// Inputs the decoder fuzzer (`scripts/fuzz.sh decoder`) once failed on, replayed from
/// `testdata/fuzz-regressions/decoder/` (8 option bytes, then the image; see
/// ``DecoderFuzzInput``). A crash, a memory error under `scripts/sanitize.sh`, or a broken
/// invariant fails the test; time and memory bounds are checked by the CLI's
/// ResourceLimitTests, in a child process.
@Suite struct DecoderFuzzRegressionTests {
    static let folder = TestData.path("fuzz-regressions/decoder")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test(arguments: inputs)
    func savedInputDecodesOrFailsWithATypedError(_ name: String) throws {
        let bytes = try TestData.readFile(Self.folder + "/" + name)
        let input = try #require(bytes.withUnsafeBufferPointer { DecoderFuzzInput($0) })
        let violation = input.run()
        #expect(violation == nil, "\(name): \(violation ?? "")")
    }

    /// Found by fuzzing: a 67-byte PNG whose zTXt chunk declared 2 GB made libpng allocate
    /// and zero 2 GB before noticing the file ended. Ancillary chunks other than tRNS and
    /// eXIf are now skipped unread.
    @Test func zTXtDeclaringTwoGigabytesIsTruncatedNotAllocated() throws {
        let bytes = try TestData.readFile(Self.folder + "/oom-ztxt-declaring-2gb.bin")
        let image = Array(bytes.dropFirst(DecoderFuzzInput.headerSize))
        #expect(throws: DecodeError.truncated(source: "ztxt.png", format: .png, reason: "the file ends before the image does")) {
            try ImageDecoder().decode(image, source: "ztxt.png")
        }
    }
}
