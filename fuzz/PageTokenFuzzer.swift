// libFuzzer entry point for page tokens (Search). The checks live in
// Tests/SearchTests/PageTokenFuzzInput.swift, compiled together with this file by
// scripts/fuzz.sh, so PageTokenFuzzRegressionTests replays saved inputs exactly.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPageToken(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let violation = PageTokenFuzzInput.run(Array(UnsafeBufferPointer(start: data, count: size))) { fatalError(violation) }
    return 0
}
