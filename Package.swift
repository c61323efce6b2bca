// swift-tools-version: 6.0
// TileCast: WRF / MM5 output -> compact tile store -> fast point forecasts.
// The data flow shows in the target names:
//   CNetCDF -> NetCDF -> (GridGeometry, Meteorology, Catalog) -> ModelIngest -> Extraction -> TileStore
//   TileStore -> (Interpolation) -> PointQuery -> TileCastCommandLine -> tilecast
import PackageDescription

let package = Package(
    name: "TileCast",
    products: [
        .executable(name: "tilecast", targets: ["tilecast"]),
        // `tilecast serve` runs this binary (installed beside tilecast): the server's libraries
        // stay out of tilecast itself, whose start-up every query pays (B4).
        .executable(name: "tilecast-server", targets: ["tilecast-server"]),
        // `tilecast query --store s3://...|https://...` and `tilecast publish` run this binary
        // (installed beside tilecast): HTTP and signing stay out of tilecast itself (B4).
        .executable(name: "tilecast-remote", targets: ["tilecast-remote"]),
        .library(name: "TileCastKit", targets: ["NetCDF", "GridGeometry", "Meteorology", "Catalog", "ModelIngest", "TileStore", "Extraction", "Interpolation", "PointQuery"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The forecast server (`tilecast serve`): HTTP, graceful shutdown, logs, metrics; and an
        // HTTP client for object storage and for the tests that drive the live server.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already under Hummingbird; named so that the server can add its own channel handlers
        // (connection limits, write timeouts, HTTP/1.0 closing: Sources/TileCastServer/ConnectionGuard.swift).
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.24.0"),
        // HMAC-SHA256 and SHA-256 for S3's SigV4 request signing.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // libnetcdf through pkg-config (`Scripts/setup` installs it when missing). The engine
        // calls libnetcdf through CNetCDFLoader; tests link this module to check the loader's
        // constants against the real header.
        .systemLibrary(
            name: "CNetCDF",
            pkgConfig: "netcdf",
            providers: [.apt(["libnetcdf-dev"]), .brew(["netcdf"]), .yum(["netcdf-devel"])]
        ),
        // libnetcdf's functions, loaded with dlopen on first use rather than linked, so that
        // commands that never read netCDF (query) do not pay ~10 ms loading HDF5, curl, TLS, ...
        .target(name: "CNetCDFLoader", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Typed Swift layer over libnetcdf: files, dimensions, variables, attributes, errors.
        .target(name: "NetCDF", dependencies: ["CNetCDFLoader"]),
        // Map projections and grids: lat/lon <-> fractional grid position. No I/O.
        .target(name: "GridGeometry"),
        // The shared vocabulary: the variables TileCast serves (names, units, stored precision),
        // model time, cycle ids, and the one parallel map. It depends on Meteorology because the
        // variable registry names the formulas of query-computed variables.
        .target(name: "Catalog", dependencies: ["Meteorology"]),
        // Pure meteorological formulas: humidity, dew point, sea-level pressure, wind, ... No I/O.
        .target(name: "Meteorology"),
        // zlib, for CRC-32 checksums of store blocks (already a dependency of libnetcdf/HDF5).
        // glibc's mallopt for `tilecast extract` (see ExtractCommand's keepFreedMemoryForReuse).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),
        // The writer's quantizing loop, in C so that it compiles to SIMD (see quantize.h).
        .target(name: "CQuantize"),
        // The point read's shared decode for CPUs with AVX2, chosen at run time (see series_decode.h).
        .target(name: "CSeriesDecode"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"]), .yum(["zlib-devel"])]),
        // The store format: domain files (writer, reader, codec, checksums) and cycles.
        .target(name: "TileStore", dependencies: ["Catalog", "GridGeometry", "CZlib", "CPrefetch", "CQuantize", "CSeriesDecode"]),
        // WRF and MM5 readers, name profiles, runs, derived variables.
        .target(name: "ModelIngest", dependencies: ["NetCDF", "GridGeometry", "Meteorology", "Catalog"]),
        // The interpolation kernel: bilinear stencils, SIMD series, time brackets. No dependencies.
        .target(name: "Interpolation"),
        // Point forecasts from the store: domain choice, interpolation, units, daily summaries, output.
        .target(name: "PointQuery", dependencies: ["TileStore", "Interpolation", "GridGeometry", "Meteorology", "Catalog"]),
        // One extraction: a run read by ModelIngest, written as a published cycle of the store.
        .target(name: "Extraction", dependencies: ["ModelIngest", "TileStore", "Catalog"]),
        // The store on object storage (S3 with SigV4, or any static HTTP server): ranged reads of
        // published cycles, and publishing a local cycle to a bucket.
        .target(
            name: "ObjectStore",
            dependencies: ["TileStore", "Catalog", "CZlib",
                           .product(name: "AsyncHTTPClient", package: "async-http-client"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        // The Open-Meteo-compatible forecast API over the same PointQuery path the CLI uses.
        .target(
            name: "TileCastServer",
            dependencies: ["PointQuery", "TileStore", "Catalog", "Meteorology", "ObjectStore", "CZlib", "GridGeometry",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                           .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Prometheus", package: "swift-prometheus")],
            // The time-zone table of `timezone=auto`, written by Scripts/make_timezone_table.py; copied
            // into TileCast_TileCastServer.resources beside the built executables, installed beside
            // tilecast-server and read at its start (TimeZoneTable.swift; never through Bundle.module).
            // The gazetteer of `/v1/search` likewise (Scripts/make_gazetteer.py, Gazetteer.swift).
            exclude: ["Resources/README.md", "Resources/GAZETTEER.md"],
            resources: [.copy("Resources/timezones.tzr"), .copy("Resources/gazetteer.tcg")]
        ),
        // What the executables share: `query`'s options and its run (tilecast answers a store
        // folder, tilecast-remote a bucket, with this one code), the Failure that ends a
        // command with its exit status, the one main() error handling, and running a sibling
        // binary. No HTTP client: tilecast links it.
        .target(
            name: "TileCastCommandLine",
            dependencies: ["PointQuery", "TileStore", "Catalog", "Meteorology", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The command line, nothing else: parses, calls the library, prints.
        .executableTarget(
            name: "tilecast",
            dependencies: ["TileCastCommandLine", "ModelIngest", "TileStore", "Extraction", "PointQuery", "Catalog", "Meteorology", "CMalloc",
                           "NetCDF", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `tilecast serve`: the server's executable.
        .executableTarget(
            name: "tilecast-server",
            dependencies: ["TileCastServer", "TileCastCommandLine", "TileStore", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // `tilecast query` on a remote store and `tilecast publish`: tilecast execs this binary.
        // Its query command runs TileCastCommandLine's, as tilecast's does, with the remote
        // store opened here, so both print exactly the same answers.
        .executableTarget(
            name: "tilecast-remote",
            dependencies: ["TileCastCommandLine", "ObjectStore", "PointQuery", "TileStore", "Catalog",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Helpers shared by the test targets: repository paths, temporary folders, running tools.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NetCDFTests", dependencies: ["NetCDF", "CNetCDF", "CNetCDFLoader", "TestSupport"]),
        .testTarget(name: "GridGeometryTests", dependencies: ["GridGeometry", "TestSupport"]),
        .testTarget(name: "MeteorologyTests", dependencies: ["Meteorology", "TestSupport"]),
        .testTarget(name: "InterpolationTests", dependencies: ["Interpolation", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "TestSupport"]),
        .testTarget(name: "PointQueryTests", dependencies: ["PointQuery", "TileStore", "Extraction", "ModelIngest", "Interpolation", "GridGeometry", "Catalog", "TestSupport"]),
        // The store's own tests; Extraction only writes the real cycles they read and damage.
        .testTarget(name: "TileStoreTests", dependencies: ["TileStore", "Extraction", "Catalog", "GridGeometry", "TestSupport"],
                    // Store files of format version 1, read by path from the source folder.
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "ExtractionTests", dependencies: ["Extraction", "TileStore", "ModelIngest", "Catalog", "TestSupport"]),
        // Runs the built `tilecast` binary: exit codes, messages, output shapes.
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
        // Drives a live `TileCastServer` on 127.0.0.1 with a real HTTP client, and the built
        // `tilecast` binary for extract/query comparisons.
        .testTarget(name: "ServerTests", dependencies: ["TileCastServer", "PointQuery", "TestSupport",
                                                        .product(name: "AsyncHTTPClient", package: "async-http-client"),
                                                        .product(name: "Hummingbird", package: "hummingbird"),
                                                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                        .product(name: "Logging", package: "swift-log")],
                    // The reference scripts and clients the tests run (by path, from the source folder).
                    exclude: ["openmeteo_sdk_check.py", "cycle_continuity_reference.py", "openmeteo_clients_common.py",
                             "openmeteo_client_sdk.py", "openmeteo_client_home_assistant.py",
                             "openmeteo_client_pyopenmeteo.py", "openmeteo_client_openmeteo_python.py",
                             "box_cells_reference.py", "nearest_cell_reference.py", "openmeteo_sdk_column.py",
                             "openmeteo_sdk_depths.py", "openmeteo_sdk_levels.py", "openmeteo_sdk_models.py",
                             "openmeteo_sdk_nulls.py", "openmeteo_sdk_surface.py", "timezone_reference.csv",
                             "precipitation_probability_reference.py", "make_shower_runs.py",
                             "openweathermap_clients.py", "qweather_clients.py", "spread_reference.py", "openmeteo_sdk_spread.py",
                             "gazetteer_reference.csv", "Fixtures"]),
        // Object storage against real peers started on loopback: nginx serving a store folder,
        // moto's S3 server; the SigV4 signer against botocore's.
        .testTarget(name: "ObjectStoreTests", dependencies: ["ObjectStore", "TileStore", "PointQuery", "TestSupport",
                                                             .product(name: "AsyncHTTPClient", package: "async-http-client")],
                    exclude: ["moto_setup.py", "fault_proxy.py", "botocore_sign.py"]),
        .testTarget(name: "ModelIngestTests", dependencies: ["ModelIngest", "NetCDF", "GridGeometry", "TestSupport"]),
    ]
)

// The server's own work per request, in process (benchmarks/request-bench, issue 30's S1):
// with TILECAST_BENCH=1 the package gains that executable. It lives here, not in the
// benchmarks package, because the server's module is no product of this one.
if Context.environment["TILECAST_BENCH"] == "1" {
    package.targets.append(.executableTarget(name: "request-bench", dependencies: ["TileCastServer"], path: "benchmarks/request-bench"))
    package.products.append(.executable(name: "request-bench", targets: ["request-bench"]))
}

// Fuzzing (Scripts/fuzz, docs/RELIABILITY.md): with TILECAST_FUZZ=1 the package gains the
// libFuzzer targets of fuzz/Sources, and its own library modules are compiled with libFuzzer's
// coverage and AddressSanitizer. Dependencies are not instrumented (their code is not what is
// fuzzed), so a fuzz build in an existing build folder reuses their objects: CI's short run
// costs only the recompilation of this package's modules. Build one target at a time
// (`swift build --product FuzzStoreReader`); the ordinary products do not link in this mode.
// The targets live in this package so that `package` entry points are visible to them.
if Context.environment["TILECAST_FUZZ"] == "1" {
    let instrumented: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
    for target in package.targets where target.type == .regular {
        target.swiftSettings = (target.swiftSettings ?? []) + instrumented
    }
    // Each target's `<Module>_main` hands control to libFuzzer (fuzz/Sources/FuzzDriver/include/FuzzDriver.h).
    func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: ["FuzzDriver"] + dependencies, path: "fuzz/Sources/\(name)",
                          swiftSettings: instrumented + [.unsafeFlags(["-parse-as-library"])],
                          linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])])
    }
    package.targets += [
        .target(name: "FuzzDriver", path: "fuzz/Sources/FuzzDriver"),
        fuzzTarget("FuzzStoreReader", ["TileStore", "Catalog"]),
        fuzzTarget("FuzzPointsFile", ["PointQuery"]),
        fuzzTarget("FuzzForecastParameters", ["TileCastServer"]),
        fuzzTarget("FuzzClassicHeader", ["NetCDF"]),
        fuzzTarget("FuzzRemoteAnswers", ["ObjectStore", "TileStore", "PointQuery", "Catalog", .product(name: "NIOHTTP1", package: "swift-nio")]),
        fuzzTarget("FuzzModelProfile", ["ModelIngest"]),
    ]
    package.products += ["FuzzStoreReader", "FuzzPointsFile", "FuzzForecastParameters", "FuzzClassicHeader", "FuzzRemoteAnswers", "FuzzModelProfile"]
        .map { Product.executable(name: $0, targets: [$0]) }
}
