import PixelBuffers

/// Uniform images made with the project's PNG encoder.
enum FlatPNG {
    /// A mid-grey RGBA PNG of the given size.
    static func grey(width: Int, height: Int) throws -> [UInt8] {
        let pixels = try PixelBuffer(format: .rgba8, width: width, height: height,
                                     bytes: [UInt8](repeating: 128, count: width * height * 4))
        return try PNGEncoder().encode(pixels)
    }
}
