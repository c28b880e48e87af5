// libFuzzer entry point for the catalog manifest parser (ManifestCatalogSource). The
// checks live in Tests/CatalogTests/ManifestFuzzInput.swift, compiled together with this
// file by scripts/fuzz.sh, so FuzzRegressionTests replays saved inputs exactly.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let violation = ManifestFuzzInput.run(Data(bytes: data, count: size)) { fatalError(violation) }
    return 0
}
