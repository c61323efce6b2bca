// swift-tools-version: 6.0
// TileCast: WRF / MM5 output -> compact tile store -> fast point forecasts.
// The data flow shows in the target names:
//   CNetCDF -> NetCDF -> (GridGeometry, Meteorology, Catalog) -> ModelIngest -> tilecast
import PackageDescription

let package = Package(
    name: "TileCast",
    products: [
        .executable(name: "tilecast", targets: ["tilecast"]),
        .library(name: "TileCastKit", targets: ["NetCDF", "GridGeometry", "Meteorology", "Catalog", "ModelIngest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libnetcdf, found through pkg-config; `Scripts/setup` installs it when missing.
        .systemLibrary(
            name: "CNetCDF",
            pkgConfig: "netcdf",
            providers: [.apt(["libnetcdf-dev"]), .brew(["netcdf"]), .yum(["netcdf-devel"])]
        ),
        // Typed Swift layer over libnetcdf: files, dimensions, variables, attributes, errors.
        .target(name: "NetCDF", dependencies: ["CNetCDF"]),
        // Map projections and grids: lat/lon <-> fractional grid position. No I/O.
        .target(name: "GridGeometry"),
        // The variables TileCast serves: names, units, stored precision. No dependencies.
        .target(name: "Catalog"),
        // Pure meteorological formulas: humidity, dew point, sea-level pressure, wind, ... No I/O.
        .target(name: "Meteorology"),
        // WRF and MM5 readers, name profiles, runs, derived variables.
        .target(name: "ModelIngest", dependencies: ["NetCDF", "GridGeometry", "Meteorology", "Catalog"]),
        // The command line, nothing else: parses, calls the library, prints.
        .executableTarget(
            name: "tilecast",
            dependencies: ["ModelIngest", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Helpers shared by the test targets: repository paths, temporary folders, running tools.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NetCDFTests", dependencies: ["NetCDF", "TestSupport"]),
        .testTarget(name: "GridGeometryTests", dependencies: ["GridGeometry"]),
        .testTarget(name: "MeteorologyTests", dependencies: ["Meteorology"]),
        .testTarget(name: "ModelIngestTests", dependencies: ["ModelIngest", "NetCDF", "GridGeometry", "TestSupport"]),
    ]
)
