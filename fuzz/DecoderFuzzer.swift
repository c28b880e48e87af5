// libFuzzer entry point for the image decoder (PNG and JPEG, regions, DCT scales,
// orientation, damage tolerance). The input format and the checks live in
// Tests/PixelBuffersTests/DecoderFuzzInput.swift, compiled together with this file by
// scripts/fuzz.sh, so FuzzRegressionTests replays saved inputs exactly.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let input = DecoderFuzzInput(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    if let violation = input.run() { fatalError(violation) }
    return 0
}
