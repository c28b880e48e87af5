// swift-tools-version:6.0
// Glimpse: image search over pixel buffers. One module per stage of the data flow
// (see docs/ARCHITECTURE.md):
//   CImageCodecs → PixelBuffers → Fingerprints (+ CSIMDKernels) → Catalog → Search → glimpse (CLI)
import PackageDescription

let package = Package(
    name: "Glimpse",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PixelBuffers", targets: ["PixelBuffers"]),
        .library(name: "Fingerprints", targets: ["Fingerprints"]),
        .library(name: "Catalog", targets: ["Catalog"]),
        .library(name: "Search", targets: ["Search"]),
        .executable(name: "glimpse", targets: ["glimpse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // C shim over libpng and libjpeg-turbo: setjmp/longjmp error handling, region and
        // DCT-scaled decode, EXIF orientation. Never exits, aborts or prints.
        // libwebp (+ demux) and libheif (HEIC/AVIF), libde265 for our strict HEVC plugin:
        // Debian libwebp-dev, libheif-dev, libde265-dev.
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"),
                             .linkedLibrary("webp"), .linkedLibrary("webpdemux"), .linkedLibrary("heif"),
                             .linkedLibrary("de265")]
        ),
        // C SIMD kernels with run-time CPU dispatch (AVX-512 / AVX2 / portable).
        .target(name: "CSIMDKernels"),
        .target(name: "PixelBuffers", dependencies: ["CImageCodecs"]),
        .target(name: "Fingerprints", dependencies: ["PixelBuffers", "CSIMDKernels"]),
        .target(
            name: "Catalog",
            dependencies: ["Fingerprints", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "Search", dependencies: ["Catalog"]),
        // Presentations of search data: thumbnails, entity details and exports, the HTML contact sheet.
        .target(name: "Rendering", dependencies: ["Search"]),
        // Accuracy evaluation: transformed queries from a catalog, recall/MRR/TPR@FPR.
        .target(name: "Evaluation", dependencies: ["Search"]),
        .executableTarget(
            name: "glimpse",
            dependencies: ["Search", "Rendering", "Evaluation", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(name: "PixelBuffersTests", dependencies: ["PixelBuffers"]),
        .testTarget(name: "FingerprintsTests", dependencies: ["Fingerprints"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog"]),
        .testTarget(name: "SearchTests", dependencies: ["Search"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering"]),
        // Test tool: runs a program and reports its own peak RSS (ResourceLimitTests).
        .executableTarget(name: "PeakRSS", path: "Tests/PeakRSS"),
        .testTarget(
            name: "GlimpseCLITests",
            // GRDB: the crash-safety test runs PRAGMA integrity_check on its own connection.
            dependencies: ["Search", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation"]),
    ],
    swiftLanguageModes: [.v6]
)
