import Benchmark
import Foundation
import Fingerprints
import PixelBuffers

// Every fingerprint kernel on every instruction set this CPU supports (names end in
// [portable], [avx2] or [avx512]), the full fingerprint of a 1080p buffer, decode +
// fingerprint of a 640×480 JPEG (catalog and query layouts), and Hamming
// scans of one query over 1,000,000 codes beside a plain scalar Swift loop.
// One iteration = one call; for the scans one iteration = the whole 1M-code scan, so
// comparisons/s = 1e6 / time and bytes/s = 8 MB (64-bit) or 32 MB (256-bit) / time.

/// A deterministic 1920×1080 RGBA8 "photo": smooth gradients, stripes and discs.
func syntheticFrame(width: Int, height: Int) -> PixelBuffer {
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let u = Double(x) / Double(width), v = Double(y) / Double(height)
            var r = 0.5 + 0.4 * sin(17 * u + 3 * v), g = 0.2 + 0.6 * v, b = 0.5 + 0.4 * cos(11 * v - 5 * u)
            if (u - 0.3) * (u - 0.3) + (v - 0.6) * (v - 0.6) < 0.02 { r = 0.9; g = 0.8; b = 0.1 }
            if (u - 0.7) * (u - 0.7) + (v - 0.3) * (v - 0.3) < 0.01 { r = 0.1; g = 0.2; b = 0.7 }
            let i = (y * width + x) * 4
            bytes[i] = UInt8(r * 255); bytes[i + 1] = UInt8(g * 255); bytes[i + 2] = UInt8(b * 255)
        }
    }
    return try! PixelBuffer(format: .rgba8, width: width, height: height, bytes: bytes)
}

/// xorshift64 codes, deterministic.
func codes(_ count: Int) -> [UInt64] {
    var s: UInt64 = 0x2545_F491_4F6C_DD1D
    return (0..<count).map { _ in
        s ^= s << 13; s ^= s >> 7; s ^= s << 17
        return s
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], warmupIterations: 3,
                                           maxDuration: .seconds(2), maxIterations: 10_000,
                                           // A p90 wall-clock rise of more than 10 % over benchmarks/Thresholds fails `thresholds check`.
                                           thresholds: [.wallClock: .init(relative: [.p90: 10.0])])
    let isas = InstructionSet.allCases.filter(\.isSupported)

    let frame = syntheticFrame(width: 1920, height: 1080)
    let working = Fingerprinter().workingImage(of: frame)            // 512×512 RGBA float + luma
    let luma512 = working.luma
    let block64 = PDQHasher.decimate64(luma512)
    let block32 = Array(luma512.samples.prefix(32 * 32))
    let pdqCoefficients = DCTMatrix.pdq.transform(block64)
    let hist = ColorHistogram(counts: ImageKernels.hsvHistogramCounts(working.color))
    let hist2 = ColorHistogram(counts: ImageKernels.hsvHistogramCounts(working.color, region: PixelRect(x: 0, y: 0, width: 256, height: 256)))

    // Small images (issue 15): a real 640×480 camera JPEG from testdata/, decoded from memory
    // exactly as `glimpse index` (catalog layout) and `glimpse query` (query layout) do.
    let smallJPEGPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("testdata/catalog/history-and-science/model-castle.jpg").path
    let smallJPEG = FileManager.default.contents(atPath: smallJPEGPath).map([UInt8].init)
    if smallJPEG == nil {
        FileHandle.standardError.write(Data("FingerprintBenchmarks: cannot read \(smallJPEGPath); the 640x480 rows are skipped\n".utf8))
    }

    for isa in isas {
        let tag = "[\(isa)]"
        Benchmark("luma RGBA8 1920x1080 \(tag)") { b in
            for _ in b.scaledIterations { blackHole(ImageKernels.luma(of: frame, using: isa)) }
        }
        Benchmark("area resample RGBA8 1920x1080 -> 512x512 \(tag)") { b in
            for _ in b.scaledIterations { blackHole(ImageKernels.areaResample(frame, width: 512, height: 512, using: isa)) }
        }
        Benchmark("area resample luma 512x512 -> 32x32 \(tag)") { b in
            for _ in b.scaledIterations { blackHole(ImageKernels.areaResample(luma512, width: 32, height: 32, using: isa)) }
        }
        Benchmark("Jarosz filter 512x512 (2 passes, window 4) \(tag)") { b in
            for _ in b.scaledIterations {
                var l = luma512
                ImageKernels.jaroszFilter(&l, windowAlongRows: 4, windowAlongColumns: 4, passes: 2, using: isa)
                blackHole(l)
            }
        }
        Benchmark("DCT 64x64 -> 16x16 (PDQ) \(tag)") { b in
            for _ in b.scaledIterations { blackHole(DCTMatrix.pdq.transform(block64, using: isa)) }
        }
        Benchmark("DCT 32x32 -> 8x8 (pHash) \(tag)") { b in
            for _ in b.scaledIterations { blackHole(DCTMatrix.pHash.transform(block32, using: isa)) }
        }
        Benchmark("PDQ median threshold (256 coefficients) \(tag)", configuration: .init(scalingFactor: .kilo, thresholds: [.wallClock: .init(relative: [.p90: 10.0])])) { b in
            for _ in b.scaledIterations { blackHole(PDQHasher.bits(of: pdqCoefficients, using: isa)) }
        }
        Benchmark("HSV histogram 512x512 \(tag)") { b in
            for _ in b.scaledIterations { blackHole(ImageKernels.hsvHistogramCounts(working.color, using: isa)) }
        }
        Benchmark("histogram L1 distance (64 bytes) \(tag)", configuration: .init(scalingFactor: .kilo, thresholds: [.wallClock: .init(relative: [.p90: 10.0])])) { b in
            for _ in b.scaledIterations { blackHole(hist.distance(to: hist2, using: isa)) }
        }
        Benchmark("PDQ hash of 512x512 luma \(tag)") { b in
            for _ in b.scaledIterations { blackHole(PDQHasher(using: isa).hash(luma: luma512)) }
        }
        if let smallJPEG {
            for (name, layout) in [("catalog", FingerprintViewLayout.catalog), ("query", .query)] {
                let fingerprinter = ImageFingerprinter(layout: layout, fingerprinter: Fingerprinter(using: isa))
                Benchmark("decode + \(name) fingerprint, 640x480 JPEG (\(layout.viewCount) views) \(tag)") { b in
                    for _ in b.scaledIterations { blackHole(try? fingerprinter.fingerprint(decoding: smallJPEG, source: smallJPEGPath)) }
                }
            }
        }
        Benchmark("PDQ hash of 1920x1080 RGBA8 at full size (reference path) \(tag)") { b in
            for _ in b.scaledIterations { blackHole(PDQHasher(using: isa).hash(frame)) }
        }
        Benchmark("fingerprint 1920x1080, catalog layout (\(FingerprintViewLayout.catalog.viewCount) views) \(tag)") { b in
            for _ in b.scaledIterations { blackHole(Fingerprinter(using: isa).fingerprint(of: frame)) }
        }
        Benchmark("fingerprint 1920x1080, query layout (\(FingerprintViewLayout.query.viewCount) views) \(tag)") { b in
            for _ in b.scaledIterations { blackHole(Fingerprinter(using: isa).queryFingerprint(of: frame)) }
        }
    }

    // Hamming scans: one query over 1,000,000 codes.
    let n = 1_000_000
    let codes64 = codes(n)
    let codes256 = codes(4 * n)
    let q64: UInt64 = 0x9E37_79B9_7F4A_7C15
    let q256 = PDQHash(words: SIMD4(codes256[40], codes256[41] ^ 0xFF, codes256[42], codes256[43]))
    let scan = Benchmark.Configuration(metrics: [.wallClock, .throughput], warmupIterations: 2, maxDuration: .seconds(3), maxIterations: 200,
                                          thresholds: [.wallClock: .init(relative: [.p90: 10.0])])

    Benchmark("Hamming64 scan 1M codes, plain scalar Swift loop", configuration: scan) { b in
        var out = [UInt16](repeating: 0, count: n)
        for _ in b.scaledIterations {
            codes64.withUnsafeBufferPointer { c in
                out.withUnsafeMutableBufferPointer { o in
                    for i in 0..<c.count { o[i] = UInt16((c[i] ^ q64).nonzeroBitCount) }
                }
            }
            blackHole(out)
        }
    }
    Benchmark("Hamming256 scan 1M codes, plain scalar Swift loop", configuration: scan) { b in
        var out = [UInt16](repeating: 0, count: n)
        for _ in b.scaledIterations {
            codes256.withUnsafeBufferPointer { c in
                out.withUnsafeMutableBufferPointer { o in
                    for i in 0..<n {
                        let x0 = (c[4 * i] ^ q256.words[0]).nonzeroBitCount + (c[4 * i + 1] ^ q256.words[1]).nonzeroBitCount
                        let x1 = (c[4 * i + 2] ^ q256.words[2]).nonzeroBitCount + (c[4 * i + 3] ^ q256.words[3]).nonzeroBitCount
                        o[i] = UInt16(x0 + x1)
                    }
                }
            }
            blackHole(out)
        }
    }
    for isa in isas {
        let tag = "[\(isa)]"
        Benchmark("Hamming64 scan 1M codes, distances \(tag)", configuration: scan) { b in
            var out = [UInt16](repeating: 0, count: n)
            for _ in b.scaledIterations {
                codes64.withUnsafeBufferPointer { c in out.withUnsafeMutableBufferPointer { HammingScan.distances(from: q64, to: c, into: $0, using: isa) } }
                blackHole(out)
            }
        }
        Benchmark("Hamming64 scan 1M codes, top-10 \(tag)", configuration: scan) { b in
            for _ in b.scaledIterations {
                blackHole(codes64.withUnsafeBufferPointer { HammingScan.nearest(10, to: q64, in: $0, using: isa) })
            }
        }
        Benchmark("Hamming256 scan 1M codes, distances \(tag)", configuration: scan) { b in
            var out = [UInt16](repeating: 0, count: n)
            for _ in b.scaledIterations {
                codes256.withUnsafeBufferPointer { c in out.withUnsafeMutableBufferPointer { HammingScan.distances(from: q256, to: c, into: $0, using: isa) } }
                blackHole(out)
            }
        }
        Benchmark("Hamming256 scan 1M codes, top-10 \(tag)", configuration: scan) { b in
            for _ in b.scaledIterations {
                blackHole(codes256.withUnsafeBufferPointer { HammingScan.nearest(10, to: q256, in: $0, using: isa) })
            }
        }
    }
}
