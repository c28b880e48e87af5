import Foundation
import Fingerprints
import PixelBuffers
import SyntheticData

/// The project's testdata folder, found from this file's path.
let testdataURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("testdata")

/// Every instruction set this CPU can run (portable always; the others when supported).
let supportedInstructionSets = InstructionSet.allCases.filter(\.isSupported)

/// A deterministic synthetic "photo": smooth colour gradients, sinusoids and a few
/// bright discs, so that hashes have structure. RGBA8, opaque.
func syntheticPhoto(width: Int, height: Int, seed: UInt64) -> PixelBuffer {
    var rng = SeededGenerator(seed: seed)
    func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
    let fx = 1 + unit() * 4, fy = 1 + unit() * 4, phase = unit() * 6.28
    let discs = (0..<5).map { _ in (x: unit(), y: unit(), r: 0.05 + unit() * 0.15, c: (unit(), unit(), unit())) }
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let u = Double(x) / Double(width), v = Double(y) / Double(height)
            var r = 0.5 + 0.35 * sin(6.28 * fx * u + phase), g = 0.3 + 0.4 * v, b = 0.5 + 0.3 * cos(6.28 * fy * v + u * 3)
            for d in discs where (u - d.x) * (u - d.x) + (v - d.y) * (v - d.y) < d.r * d.r {
                r = d.c.0; g = d.c.1; b = d.c.2
            }
            let i = (y * width + x) * 4
            bytes[i] = UInt8(max(0, min(255, r * 255)))
            bytes[i + 1] = UInt8(max(0, min(255, g * 255)))
            bytes[i + 2] = UInt8(max(0, min(255, b * 255)))
        }
    }
    return try! PixelBuffer(format: .rgba8, width: width, height: height, bytes: bytes)
}

/// Random bytes as an RGBA8 or Gray8 buffer, with padded rows.
func randomBuffer(format: PixelFormat, width: Int, height: Int, seed: UInt64) -> PixelBuffer {
    var rng = SeededGenerator(seed: seed)
    let stride = width * format.bytesPerPixel + 3
    let bytes = (0..<(stride * height)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    return try! PixelBuffer(format: format, width: width, height: height, bytesPerRow: stride, bytes: bytes)
}

/// Exact equality of float arrays, bit pattern by bit pattern.
func bitIdentical(_ a: [Float], _ b: [Float]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
}

/// A copy of an RGBA8/Gray8 buffer rotated 90° clockwise.
func rotatedClockwise(_ buffer: PixelBuffer) -> PixelBuffer {
    let bpp = buffer.format.bytesPerPixel, w = buffer.width, h = buffer.height
    let src = buffer.packedBytes()
    var out = [UInt8](repeating: 0, count: src.count)
    for y in 0..<h {
        for x in 0..<w {
            // (x, y) → (h - 1 - y, x) in a h-wide, w-tall image.
            let d = (x * h + (h - 1 - y)) * bpp, s = (y * w + x) * bpp
            for c in 0..<bpp { out[d + c] = src[s + c] }
        }
    }
    return try! PixelBuffer(format: buffer.format, width: h, height: w, bytes: out)
}

/// `buffer` in orientation `transform`: pixel (r, c) of the result is the source pixel
/// ``Dihedral/sourceCell(row:column:rows:columns:)`` names.
func transformed(_ buffer: PixelBuffer, by transform: Dihedral) -> PixelBuffer {
    let bpp = buffer.format.bytesPerPixel, w = buffer.width, h = buffer.height
    let src = buffer.packedBytes()
    let (ow, oh) = transform.swapsAxes ? (h, w) : (w, h)
    var out = [UInt8](repeating: 0, count: src.count)
    for r in 0..<oh {
        for c in 0..<ow {
            let s = transform.sourceCell(row: r, column: c, rows: h, columns: w)
            let d = (r * ow + c) * bpp, o = (s.row * w + s.column) * bpp
            for k in 0..<bpp { out[d + k] = src[o + k] }
        }
    }
    return try! PixelBuffer(format: buffer.format, width: ow, height: oh, bytes: out)
}
