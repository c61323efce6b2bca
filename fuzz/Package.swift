// swift-tools-version: 6.0
// libFuzzer targets for TileCast (issue 7). Not part of the main package: it needs
// `-sanitize=fuzzer`, which only works for executables with no `main` of their own.
//
//   Scripts/fuzz                      # builds, writes seed corpora, runs each target (FUZZ_SECONDS, default 60)
//
// or by hand, from this folder:
//
//   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//   .build/release/FuzzStoreReader corpus/store -max_total_time=60
//   .build/release/FuzzPointsFile corpus/points -max_total_time=60
import PackageDescription

let package = Package(
    name: "TileCastFuzz",
    dependencies: [
        .package(name: "TileCast", path: ".."),
    ],
    targets: [
        // Hands control to libFuzzer's driver (see FuzzDriver.h for why this is needed).
        .target(name: "FuzzDriver"),
        // Bytes -> DomainFileReader(bytes:label:) -> every series: must throw or return, never crash.
        .executableTarget(name: "FuzzStoreReader", dependencies: ["FuzzDriver", .product(name: "TileCastKit", package: "TileCast")]),
        // Text -> PointsFile.parse(_:source:): must throw or return, never crash.
        .executableTarget(name: "FuzzPointsFile", dependencies: ["FuzzDriver", .product(name: "TileCastKit", package: "TileCast")]),
    ]
)
