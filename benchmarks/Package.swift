// swift-tools-version:6.1
// Glimpse benchmarks (ordo-one/package-benchmark), a package of their own so the root
// package never depends on the benchmark harness. Run: cd benchmarks && swift package benchmark
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder; the root may be checked out under any name.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "GlimpseBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "DecodeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PixelBuffers", package: root),
            ],
            path: "Benchmarks/DecodeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SearchBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Catalog", package: root),
                .product(name: "Fingerprints", package: root),
                .product(name: "Search", package: root),
                .product(name: "SyntheticData", package: root),
            ],
            path: "Benchmarks/SearchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Fingerprint kernels on every instruction set, full fingerprints, Hamming scans.
        .executableTarget(
            name: "FingerprintBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PixelBuffers", package: root),
                .product(name: "Fingerprints", package: root),
            ],
            path: "Benchmarks/FingerprintBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Imports that tell the truth (as in the root package): members only from modules a file imports.
for target in package.targets where target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
