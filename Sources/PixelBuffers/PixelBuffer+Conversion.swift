extension PixelBuffer {
    /// This buffer as ``PixelFormat/rgba8``: gray `v` becomes (v, v, v, 255). Returns
    /// `self` when already RGBA8; otherwise copies into a new contiguous buffer. O(pixels).
    public func convertedToRGBA8() -> PixelBuffer {
        if format == .rgba8 { return self }
        let count = pixelCount * 4
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            var d = 0
            for y in 0..<height {
                withRow(y) { row in
                    for v in row {
                        out[d] = v; out[d + 1] = v; out[d + 2] = v; out[d + 3] = 255
                        d += 4
                    }
                }
            }
            initialized = count
        }
        return PixelBuffer(unchecked: .rgba8, width: width, height: height, bytesPerRow: width * 4, storage: bytes, origin: 0)
    }
}
