import Foundation
import Testing
@testable import Catalog
import CatalogTestSupport

/// Inputs the manifest fuzzer (`scripts/fuzz.sh manifest`) once failed on, replayed from
/// `testdata/fuzz-regressions/manifest/`. Leaks are caught when this runs under
/// `scripts/sanitize.sh` (AddressSanitizer's leak checker).
@Suite struct ManifestFuzzRegressionTests {
    static let folder = Fixtures.root.deletingLastPathComponent().appendingPathComponent("fuzz-regressions/manifest")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func everySavedInputLoadsOrFailsWithATypedError() throws {
        #expect(!Self.inputs.isEmpty)
        for name in Self.inputs {
            // FileHandle: Data(contentsOf:) itself leaks on the empty input kept here.
            let handle = try FileHandle(forReadingFrom: Self.folder.appendingPathComponent(name))
            defer { try? handle.close() }
            let bytes = try handle.readToEnd() ?? Data()
            let violation = ManifestFuzzInput.run(bytes, name: "regression-\(name)")
            #expect(violation == nil, "\(name): \(violation ?? "")")
        }
    }

    /// Found by fuzzing: reading an empty manifest leaked 4 KiB inside Foundation's
    /// `Data(contentsOf:)`; the manifest is now read through `FileHandle`.
    @Test func emptyManifestIsMalformedJSON() throws {
        let path = Self.folder.appendingPathComponent("leak-empty-manifest.json").path
        #expect { try ManifestCatalogSource(manifestPath: path).load() } throws: { error in
            guard case CatalogSourceError.malformedJSON(let named, _) = error else { return false }
            return named == path
        }
    }
}
