import Benchmark
import Foundation
import PixelBuffers

/// Decode of a 12 MP (4000×3000, 4:2:0, quality 90) photo JPEG made by
/// `benchmarks/make-bench-images.sh` (run here on first use): at full size, as a
/// 1000×1000 region, and DCT-scaled to a 64-pixel short side. The bytes are read once;
/// every iteration decodes from memory, so the figures compare with `djpeg` minus its
/// file I/O and process start.
let benchmarks: @Sendable () -> Void = {
    let benchmarksFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let imagePath = benchmarksFolder.appendingPathComponent(".images/photo-12mp.jpg").path
    if !FileManager.default.fileExists(atPath: imagePath) {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [benchmarksFolder.appendingPathComponent("make-bench-images.sh").path]
        try? script.run()
        script.waitUntilExit()
    }
    guard let bytes = FileManager.default.contents(atPath: imagePath).map([UInt8].init) else {
        FileHandle.standardError.write(Data("DecodeBenchmarks: cannot read \(imagePath); run benchmarks/make-bench-images.sh\n".utf8))
        return
    }
    let decoder = ImageDecoder()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 200,
        // A p90 wall-clock rise of more than 10 % over benchmarks/Thresholds fails `thresholds check`.
        thresholds: [.wallClock: .init(relative: [.p90: 10.0])])

    func register(_ name: String, _ options: DecodeOptions, expect: (Int, Int)) {
        Benchmark(name, configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let image = try decoder.decode(bytes, source: imagePath, options: options)
                precondition(image.pixels.width == expect.0 && image.pixels.height == expect.1)
                blackHole(image)
            }
        }
    }

    register("JPEG 12 MP full size", DecodeOptions(), expect: (4000, 3000))
    register("JPEG 12 MP region 1000x1000",
             DecodeOptions(region: .pixels(PixelRect(x: 1501, y: 1001, width: 1000, height: 1000))), expect: (1000, 1000))
    register("JPEG 12 MP to 64 px short side", DecodeOptions(minimumShortSide: 64), expect: (500, 375))
    register("JPEG 12 MP region 1000x1000 to 64 px short side",
             DecodeOptions(region: .pixels(PixelRect(x: 1501, y: 1001, width: 1000, height: 1000)), minimumShortSide: 64),
             expect: (126, 126))
}
