/// Encodes pixels as a Netpbm PAM file (`P7`, `TUPLTYPE RGB_ALPHA`, `MAXVAL 255`,
/// `DEPTH 4`): a lossless dump any image tool reads.
public enum PAMWriter {
    /// The header for a `width`×`height` RGB_ALPHA image.
    public static func header(width: Int, height: Int) -> String {
        "P7\nWIDTH \(width)\nHEIGHT \(height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
    }

    /// The whole PAM file for `buffer`; Gray8 is expanded to RGBA (v, v, v, 255).
    /// O(pixels); allocates the file once.
    public static func encode(_ buffer: PixelBuffer) -> [UInt8] {
        let rgba = buffer.convertedToRGBA8()
        var out = Array(header(width: rgba.width, height: rgba.height).utf8)
        out.reserveCapacity(out.count + rgba.pixelCount * 4)
        for y in 0..<rgba.height { rgba.withRow(y) { out.append(contentsOf: $0) } }
        return out
    }
}
