// swift-tools-version:6.1
// Glimpse: image search over pixel buffers. One module per stage of the data flow
// (see docs/ARCHITECTURE.md):
//   CImageCodecs → PixelBuffers → Fingerprints (+ CSIMDKernels) → Catalog → Search → Matching → glimpse (CLI)
// with the stores beside the Catalog: SQLiteStore, PostgresStore (CatalogStores opens either),
// and SyntheticData (seeded generators, synthetic catalogs) for benchmarks, evaluation and tests.
// Each target lists every module it imports (nothing is re-exported: see the end).
import PackageDescription

let package = Package(
    name: "Glimpse",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PixelBuffers", targets: ["PixelBuffers"]),
        .library(name: "Fingerprints", targets: ["Fingerprints"]),
        .library(name: "Catalog", targets: ["Catalog"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "CatalogStores", targets: ["CatalogStores"]),
        .library(name: "Search", targets: ["Search"]),
        .library(name: "Matching", targets: ["Matching"]),
        .library(name: "SyntheticData", targets: ["SyntheticData"]),
        // A typed Swift client of `glimpse serve` (generated from openapi.yaml).
        .library(name: "GlimpseClient", targets: ["GlimpseClient"]),
        .executable(name: "glimpse", targets: ["glimpse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // NIOCore (ByteBuffer) and its Data conversions for the PostgreSQL store's bulk binds; the
        // version postgres-nio resolves.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // glimpse serve (issue 10): HTTP server, lifecycle, logging, metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // NIO's HTTP parts and the HTTPTypes codec, for the server's own connection handler
        // (HTTP/1.0, Expect, parser errors); the version Hummingbird resolves.
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        // The HTTP API from its spec (issue 32): types and client generated from openapi.yaml at
        // build time, sent with async-http-client.
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", exact: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // Request traces (spans per stage; an in-memory tracer in the tests).
        .package(url: "https://github.com/apple/swift-distributed-tracing", exact: "1.7.3"),
        // OTLP/HTTP export of those traces from `glimpse serve --otel-endpoint` (no gRPC stack).
        .package(url: "https://github.com/swift-otel/swift-otel", exact: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // C shim over libpng and libjpeg-turbo: setjmp/longjmp error handling, region and
        // DCT-scaled decode, EXIF orientation. Never exits, aborts or prints.
        // libwebp (+ demux) and libheif (HEIC/AVIF), libde265 and dav1d for our decoder plugins:
        // Debian libwebp-dev, libheif-dev, libde265-dev, libdav1d-dev.
        .target(
            name: "CImageCodecs",
            // libheif, libde265 and dav1d are not linked: the first HEIF or AVIF decode loads
            // them (heif_library.h), so other processes do not pay their start-up.
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"),
                             .linkedLibrary("webp"), .linkedLibrary("webpdemux")]
        ),
        // C SIMD kernels with run-time CPU dispatch (AVX-512 / AVX2 / portable).
        .target(name: "CSIMDKernels"),
        .target(name: "PixelBuffers", dependencies: ["CImageCodecs"]),
        .target(name: "Fingerprints", dependencies: ["PixelBuffers", "CSIMDKernels"]),
        // The entity model, catalog sources, the EntityStore protocol and the indexer.
        .target(name: "Catalog", dependencies: ["PixelBuffers", "Fingerprints"]),
        // EntityStore on one SQLite file (GRDB): the zero-set-up default.
        .target(name: "SQLiteStore", dependencies: ["Fingerprints", "Catalog", .product(name: "GRDB", package: "GRDB.swift")]),
        // EntityStore on a shared PostgreSQL database (postgres-nio): many indexers and replicas.
        .target(
            name: "PostgresStore",
            dependencies: [
                "Fingerprints", "Catalog", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Opens the store a location names: a file path (SQLite) or a postgres:// URL.
        .target(name: "CatalogStores", dependencies: ["Catalog", "SQLiteStore", "PostgresStore"]),
        .target(name: "Search", dependencies: ["PixelBuffers", "Fingerprints", "Catalog"]),
        // Batch matching (glimpse match): photo folders, one row per photo, CSV / JSON Lines output.
        .target(name: "Matching", dependencies: ["PixelBuffers", "Fingerprints", "Catalog", "Search"]),
        // Seeded generators and synthetic catalogs: reproducible inputs for benchmarks, the
        // evaluation's transformations and tests.
        .target(name: "SyntheticData", dependencies: ["Fingerprints", "Catalog"]),
        // Presentations of search data: thumbnails, entity details and exports, the HTML contact sheet.
        .target(name: "Rendering", dependencies: ["PixelBuffers", "Catalog", "Search", "Matching"]),
        // glimpse serve: the HTTP API over Search/Rendering (Hummingbird 2).
        .target(
            name: "Server",
            dependencies: [
                "PixelBuffers", "Fingerprints", "Catalog", "Search", "Rendering", "GlimpseAPITypes",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // The requests of a partitioned catalog's fan-out to the other partitions' replicas.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // IOError, to tell a port in use from other start-up failures.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            resources: [.embedInCode("openapi.yaml")],
            // The generated server interface (`registerHandlers`) over GlimpseAPITypes' APIProtocol.
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The HTTP API's wire types, generated from openapi.yaml (the one description of the API).
        .target(
            name: "GlimpseAPITypes",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // A typed client of glimpse serve: the generated client over async-http-client, with
        // retries on 429/503 (Retry-After), time-outs and the server's error body as a typed error.
        .target(
            name: "GlimpseClient",
            dependencies: [
                "GlimpseAPITypes",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Accuracy evaluation: transformed queries from a catalog, recall/MRR/TPR@FPR.
        .target(name: "Evaluation", dependencies: ["PixelBuffers", "Fingerprints", "Catalog", "Search", "SyntheticData", "SQLiteStore"]),
        .executableTarget(
            name: "glimpse",
            dependencies: [
                "PixelBuffers", "Fingerprints", "Catalog", "Search", "Matching", "SyntheticData", "Rendering", "Evaluation", "Server",
                "CatalogStores", "SQLiteStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The trait that makes a cross-instruction-set test report the paths this CPU lacks; never shipped.
        .target(name: "InstructionSetTesting", dependencies: ["Fingerprints"], path: "Tests/InstructionSetTesting"),
        // The real glimpse executable, a `glimpse serve` process and raw connections to it, for the
        // tests that run the program; never shipped.
        .target(name: "GlimpseProcessTesting", path: "Tests/GlimpseProcessTesting"),
        // The one check of a wire format against its golden file in testdata/wire; never shipped.
        .target(name: "GoldenFiles", path: "Tests/GoldenFiles"),
        .testTarget(name: "PixelBuffersTests", dependencies: ["PixelBuffers", "SyntheticData"]),
        .testTarget(name: "FingerprintsTests", dependencies: ["PixelBuffers", "Fingerprints", "SyntheticData", "InstructionSetTesting"]),
        // Fixtures and the synthetic fingerprinter shared by the Catalog tests and the store
        // conformance suite (test targets cannot import each other); never shipped.
        .target(name: "CatalogTestSupport", dependencies: ["Fingerprints", "Catalog", "SyntheticData"], path: "Tests/CatalogTestSupport"),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "CatalogTestSupport"]),
        // The throwaway PostgreSQL test cluster (GLIMPSE_TEST_POSTGRES_URL) and `psql` on it,
        // shared by the CLI, server and store conformance tests; never shipped.
        .target(name: "PostgresTestSupport", path: "Tests/PostgresTestSupport"),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["Fingerprints", "Catalog", "SQLiteStore", .product(name: "GRDB", package: "GRDB.swift")]),
        // One suite of EntityStore behaviour, run against every store kind.
        // The PostgreSQL cases run on the throwaway cluster of scripts/pg-test-cluster.sh.
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: ["Fingerprints", "Catalog", "CatalogStores", "PostgresStore", "CatalogTestSupport", "PostgresTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "SearchTests", dependencies: ["PixelBuffers", "Fingerprints", "Catalog", "Search", "SyntheticData", "SQLiteStore", "InstructionSetTesting", "GoldenFiles"]),
        .testTarget(name: "MatchingTests", dependencies: ["Catalog", "Search", "Matching", "GoldenFiles"]),
        .testTarget(name: "RenderingTests", dependencies: ["PixelBuffers", "Catalog", "Search", "Matching", "Rendering"]),
        // Test tool: runs a program and reports its own peak RSS (ResourceLimitTests).
        .executableTarget(name: "PeakRSS", path: "Tests/PeakRSS"),
        .testTarget(
            name: "GlimpseCLITests",
            // GRDB: the crash-safety test runs PRAGMA integrity_check on its own connection.
            dependencies: ["PixelBuffers", "Catalog", "Search", "SyntheticData", "SQLiteStore", "PostgresTestSupport", "GlimpseProcessTesting",
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "EvaluationTests", dependencies: ["PixelBuffers", "Fingerprints", "Catalog", "Search", "SyntheticData", "Evaluation", "SQLiteStore", "GoldenFiles"]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "PixelBuffers", "Fingerprints", "Catalog", "Search", "Rendering", "Server", "CatalogStores", "SQLiteStore", "PostgresTestSupport",
                "GlimpseProcessTesting", "GlimpseAPITypes", "GoldenFiles",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        // GlimpseClient against a real `glimpse serve` process.
        .testTarget(name: "GlimpseClientTests", dependencies: ["GlimpseClient", "GlimpseAPITypes", "GlimpseProcessTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

// Imports that tell the truth: a file uses only the modules it imports itself, members
// (methods, properties, operators) included (SE-0444), and nothing is re-exported.
for target in package.targets where target.type != .system && target.type != .binary && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
