import Foundation
import InstructionSetTesting
import PixelBuffers
import SyntheticData
import Testing
import Fingerprints

/// Every float kernel: the fast paths equal the portable path bit for bit, and the
/// portable path computes what it claims.
@Suite struct ImageKernelsTests {
    @Test(.comparingEveryInstructionSet, arguments: [(1, 1), (7, 3), (33, 17), (200, 61)])
    func lumaIsBitIdenticalOnEveryPathAndFollowsThePDQFormula(size: (Int, Int)) {
        for format in PixelFormat.allCases {
            let buffer = randomBuffer(format: format, width: size.0, height: size.1, seed: UInt64(size.0 * 31 + size.1))
            let portable = ImageKernels.luma(of: buffer, using: .portable)
            for isa in supportedInstructionSets {
                #expect(bitIdentical(ImageKernels.luma(of: buffer, using: isa).samples, portable.samples), "\(format) \(isa)")
            }
            let row = buffer.row(size.1 - 1)!
            let x = size.0 - 1
            let expected: Float = format == .gray8 ? Float(row[x])
                : 0.299 * Float(row[4 * x]) + 0.587 * Float(row[4 * x + 1]) + 0.114 * Float(row[4 * x + 2])
            #expect(portable[x, size.1 - 1] == expected)
        }
    }

    @Test(.comparingEveryInstructionSet, arguments: [(640, 480, 64, 64), (97, 13, 8, 8), (31, 33, 32, 32), (50, 50, 50, 50), (5, 8, 12, 3)])
    func areaResampleIsBitIdenticalOnEveryPathAndPreservesMeans(case c: (Int, Int, Int, Int)) {
        let buffer = randomBuffer(format: .rgba8, width: c.0, height: c.1, seed: 9)
        let portable = ImageKernels.areaResample(buffer, width: c.2, height: c.3, using: .portable)
        for isa in supportedInstructionSets {
            #expect(bitIdentical(ImageKernels.areaResample(buffer, width: c.2, height: c.3, using: isa).samples, portable.samples), "\(isa)")
        }
        // Mean of all outputs equals the mean of the source (areas are exact fractions).
        let src = buffer.packedBytes()
        let sourceMean = stride(from: 0, to: src.count, by: 4).reduce(0.0) { $0 + Double(src[$1]) } / Double(c.0 * c.1)
        let outMean = stride(from: 0, to: portable.samples.count, by: 4).reduce(0.0) { $0 + Double(portable.samples[$1]) } / Double(c.2 * c.3)
        #expect(abs(sourceMean - outMean) < 0.01)
    }

    @Test func areaResampleAveragesExactFractionalCoverage() throws {
        // 3 pixels → 2 outputs: output 0 = p0 + ½ p1 over 1.5, output 1 = ½ p1 + p2 over 1.5.
        let gray = try PixelBuffer(format: .gray8, width: 3, height: 1, bytes: [30, 60, 90])
        let out = ImageKernels.areaResample(gray, width: 2, height: 1, using: .portable)
        #expect(abs(out[0, 0] - 40) < 1e-4 && abs(out[1, 0] - 80) < 1e-4)
        let weights = AreaWeights(source: 3, target: 2)
        #expect(weights.tapStart == [0, 1] && weights.tapCount == [2, 2])
        #expect(weights.weights == [Float(2.0 / 3.0), Float(1.0 / 3.0), Float(1.0 / 3.0), Float(2.0 / 3.0)])
    }

    /// The taps carried from output to output equal the definition's divisions (first source
    /// pixel `o·S / T`, last `((o + 1)·S − 1) / T`, weight = integer overlap / S) for every
    /// pair of sizes up to 160, shrinking and enlarging, and for the sizes a fingerprint uses.
    @Test func areaWeightsEqualTheDefinitionForEverySizePair() {
        func definition(_ source: Int, _ target: Int) -> (start: [Int32], count: [Int32], offset: [Int32], weights: [Float]) {
            var start: [Int32] = [], count: [Int32] = [], offset: [Int32] = [], weights: [Float] = []
            for o in 0..<target {
                let lo = o * source, hi = (o + 1) * source
                let first = lo / target, last = (hi - 1) / target
                start.append(Int32(first))
                count.append(Int32(last - first + 1))
                offset.append(Int32(weights.count))
                for p in first...last {
                    let overlap = min((p + 1) * target, hi) - max(p * target, lo)
                    weights.append(Float(Double(overlap) / Double(source)))
                }
            }
            return (start, count, offset, weights)
        }
        let pairs = (1...160).flatMap { s in (1...160).map { (s, $0) } } + [(320, 320), (320, 128), (240, 96), (500, 32), (4000, 512)]
        var mismatches: [String] = []
        for (source, target) in pairs {
            let carried = AreaWeights(source: source, target: target), expected = definition(source, target)
            if carried.tapStart != expected.start || carried.tapCount != expected.count || carried.tapOffset != expected.offset
                || carried.weights != expected.weights {
                mismatches.append("\(source)→\(target)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func floatRegionResampleMatchesCroppedResample() {
        let luma = ImageKernels.luma(of: randomBuffer(format: .rgba8, width: 120, height: 90, seed: 4), using: .portable)
        let rect = PixelRect(x: 13, y: 7, width: 61, height: 70)
        let a = ImageKernels.areaResample(luma, region: rect, width: 9, height: 8, using: .best)
        let b = ImageKernels.areaResample(luma.cropped(to: rect), width: 9, height: 8, using: .portable)
        #expect(bitIdentical(a.samples, b.samples))
    }

    @Test(.comparingEveryInstructionSet, arguments: [1, 2, 3, 7, 8, 40])
    func boxFilterIsBitIdenticalOnEveryPathAndMatchesPDQRunningMean(window: Int) {
        var rng = SeededGenerator(seed: UInt64(window))
        let rows = 45, cols = 300
        let input = (0..<(rows * cols)).map { _ in Float(rng.next() % 256) }
        var portable = [Float](repeating: 0, count: rows * cols)
        ImageKernels.boxColumns(input, into: &portable, rows: rows, columns: cols, window: window, using: .portable)
        for isa in supportedInstructionSets {
            var out = [Float](repeating: 0, count: rows * cols)
            ImageKernels.boxColumns(input, into: &out, rows: rows, columns: cols, window: window, using: isa)
            #expect(bitIdentical(out, portable), "\(isa)")
        }
        // Output row i is the mean of rows [i - (half-1) ... i + window - half] clipped to the image.
        let half = (window + 2) / 2
        for i in [0, rows / 2, rows - 1] {
            let lo = max(0, i - (window - half)), hi = min(rows - 1, i + half - 1)
            let mean = (lo...hi).reduce(0.0) { $0 + Double(input[$1 * cols + 5]) } / Double(hi - lo + 1)
            #expect(abs(Double(portable[i * cols + 5]) - mean) < 1e-2, "row \(i)")
        }
    }

    @Test(.comparingEveryInstructionSet, arguments: [(3, 2), (1, 1), (8, 9), (40, 17), (333, 250)])
    func jaroszFilterIsBitIdenticalOnEveryPath(windows: (Int, Int)) {
        // 333 columns, 250 rows: neither a multiple of the 8-row strips nor of the 8x8 transposes.
        let luma = ImageKernels.luma(of: syntheticPhoto(width: 333, height: 250, seed: 2), using: .portable)
        var portable = luma
        ImageKernels.jaroszFilter(&portable, windowAlongRows: windows.0, windowAlongColumns: windows.1, passes: 2, using: .portable)
        for isa in supportedInstructionSets {
            var out = luma
            ImageKernels.jaroszFilter(&out, windowAlongRows: windows.0, windowAlongColumns: windows.1, passes: 2, using: isa)
            #expect(bitIdentical(out.samples, portable.samples), "\(isa)")
        }
    }

    @Test(.comparingEveryInstructionSet, arguments: [DCTMatrix.pdq, DCTMatrix.pHash])
    func dctIsBitIdenticalOnEveryPathAndMatchesTheDefinition(matrix: DCTMatrix) {
        var rng = SeededGenerator(seed: 12)
        let n = matrix.size, f = matrix.frequencies
        let block = (0..<(n * n)).map { _ in Float(rng.next() % 256) }
        let portable = matrix.transform(block, using: .portable)
        for isa in supportedInstructionSets {
            #expect(bitIdentical(matrix.transform(block, using: isa), portable), "\(isa)")
        }
        // Definition in Double: c(u,v) = (2/N) Σ_y Σ_x A[y][x] cos(π(u+1)(2y+1)/2N) cos(π(v+1)(2x+1)/2N).
        for (u, v) in [(0, 0), (f - 1, 2), (3, f - 1)] {
            var s = 0.0
            for y in 0..<n {
                for x in 0..<n {
                    s += Double(block[y * n + x]) * cos(Double.pi * Double((u + 1) * (2 * y + 1)) / Double(2 * n))
                        * cos(Double.pi * Double((v + 1) * (2 * x + 1)) / Double(2 * n))
                }
            }
            s *= 2.0 / Double(n)
            #expect(abs(Double(portable[u * f + v]) - s) < 0.05, "(\(u),\(v))")
        }
    }

    @Test(.comparingEveryInstructionSet) func histogramCountsAreIdenticalOnEveryPathAndBinAsDocumented() throws {
        let color = ImageKernels.areaResample(randomBuffer(format: .rgba8, width: 300, height: 200, seed: 5), width: 300, height: 200, using: .portable)
        let portable = ImageKernels.hsvHistogramCounts(color, using: .portable)
        #expect(portable.reduce(0, +) == 300 * 200)
        for isa in supportedInstructionSets {
            #expect(ImageKernels.hsvHistogramCounts(color, using: isa) == portable, "\(isa)")
            #expect(ImageKernels.hsvHistogramCounts(color, region: PixelRect(x: 10, y: 20, width: 33, height: 44), using: isa)
                    == ImageKernels.hsvHistogramCounts(color, region: PixelRect(x: 10, y: 20, width: 33, height: 44), using: .portable))
        }
        func bin(_ r: Float, _ g: Float, _ b: Float) -> Int {
            let one = FloatImage(width: 1, height: 1, channels: 4, samples: [r, g, b, 255])
            return ImageKernels.hsvHistogramCounts(one, using: .portable).firstIndex(of: 1)!
        }
        #expect(bin(0, 0, 0) == 0)                 // black
        #expect(bin(255, 255, 255) == 15)          // white
        #expect(bin(128, 128, 128) == 8)           // mid grey
        #expect(bin(255, 0, 0) == 16 + 0 * 4 + 3)  // vivid bright red
        #expect(bin(0, 255, 0) == 16 + 4 * 4 + 3)  // green: hue sector 4 (120°)
        #expect(bin(0, 0, 255) == 16 + 8 * 4 + 3)  // blue: sector 8 (240°)
        #expect(bin(100, 60, 60) == 16 + 0 * 4 + 0) // dull dark red
    }
}
