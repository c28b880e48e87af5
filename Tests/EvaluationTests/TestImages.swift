import Foundation
import PixelBuffers

/// Locates and decodes the project's real test images under `testdata/`.
enum TestImages {
    /// The repository's `testdata/` folder, found from this file's path.
    static let testdata: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("testdata").path
    }()

    /// Full path of `relative` under `testdata/`.
    static func path(_ relative: String) -> String {
        (testdata as NSString).appendingPathComponent(relative)
    }

    /// Decodes `testdata/<relative>` to RGBA8.
    static func load(_ relative: String) throws -> PixelBuffer {
        try ImageDecoder().decode(file: path(relative), options: DecodeOptions(alwaysRGBA: true)).pixels
    }

    /// A real photo with detail and no blank background (640×397).
    static func photo() throws -> PixelBuffer { try load("catalog/landmarks/sterngarten-vienna.jpg") }

    /// Pixel (x, y) of an RGBA8 buffer as four bytes.
    static func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        buffer.withRow(y) { Array($0[(x * 4)..<(x * 4 + 4)]) }
    }

    /// Mean of the R, G and B channels over the whole buffer.
    static func meanLevel(_ buffer: PixelBuffer) -> Double {
        var sum = 0, count = 0
        for y in 0..<buffer.height {
            buffer.withRow(y) { row in
                for x in 0..<buffer.width {
                    sum += Int(row[4 * x]) + Int(row[4 * x + 1]) + Int(row[4 * x + 2])
                    count += 3
                }
            }
        }
        return Double(sum) / Double(count)
    }

    /// Mean absolute difference per channel (R, G, B) between two same-size RGBA8 buffers.
    static func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var sum = 0
        for y in 0..<a.height {
            a.withRow(y) { ra in
                b.withRow(y) { rb in
                    for x in 0..<a.width {
                        for c in 0..<3 { sum += abs(Int(ra[4 * x + c]) - Int(rb[4 * x + c])) }
                    }
                }
            }
        }
        return Double(sum) / Double(a.width * a.height * 3)
    }
}
