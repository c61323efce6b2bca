// swift-tools-version: 6.0
// TileCast benchmarks (SPEC section 7), a package of their own so the main build stays lean.
// Run them with Scripts/bench from the repository root; results go to benchmarks/RESULTS.md.
//
// Two builds, never mixed in one binary:
// - portable (default): Swift as the main package builds it (-c release, any x86-64) and the
//   C reference kernel at -O3;
// - fast (TILECAST_FAST=1): Scripts/bench adds -Xswiftc -Xcc -Xswiftc -march=x86-64-v3 for
//   the Swift code (AVX2 + FMA; swiftc's -target-cpu has no x86-64-v3, the Clang importer's
//   -march sets the same target features), and this manifest builds the C kernel at
//   -O3 -march=native.
// unsafeFlags are allowed here because this is a root package; nothing depends on it.
import Foundation
import PackageDescription

let fast = Context.environment["TILECAST_FAST"] == "1"

// SwiftPM names a path dependency after its folder: "main" here, whatever a clone is called
// elsewhere.
let mainPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

// The benchmarks time the engine's own parts (the interpolation kernel, the store readers'
// block caches), which TileCastKit keeps `package` rather than public (README, "Using
// TileCastKit from Swift"). Compiled under the main package's package name, these targets see
// its `package` declarations as its own targets do. SwiftPM's -package-name is the package's
// identity (its folder's name, lower-cased) as a C identifier: "main", "wt_api" for wt-api.
// `packageAccess: false` keeps SwiftPM from passing this package's own name after it.
let mainPackageName: String = {
    let name = String(mainPackage.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    return name.first?.isNumber == true ? "_" + name : name
}()
let mainPackageAccess: [SwiftSetting] = [.unsafeFlags(["-package-name", mainPackageName])]

// -ffp-contract=off: clang would otherwise fuse a * b + c into FMAs, which Swift does not
// do; the reference must compute the same roundings to do the same work (and to be checked
// bit for bit against the Swift kernel).
let cFlags = ["-O3", "-ffp-contract=off"] + (fast ? ["-march=native"] : [])

let package = Package(
    name: "TileCastBenchmarks",
    dependencies: [
        // The main package; SwiftPM names a path dependency after its directory: `main`.
        .package(path: ".."),
        // S1's ceiling server (same versions as the main package's: SwiftPM resolves one of each).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    ],
    targets: [
        // The plain C reference kernel for B1.
        .target(name: "CKernel", cSettings: [.unsafeFlags(cFlags)]),
        // B1 and B2: Swift scalar, SIMD and concurrent against C, growth curves, JSON + Markdown.
        .executableTarget(
            name: "interpolation-bench",
            dependencies: ["CKernel", .product(name: "TileCastKit", package: mainPackage)],
            packageAccess: false, swiftSettings: mainPackageAccess
        ),
        // B3: point forecasts from an on-disk store, in process.
        .executableTarget(name: "store-bench", dependencies: [.product(name: "TileCastKit", package: mainPackage)],
                          packageAccess: false, swiftSettings: mainPackageAccess),
        // S1's reference: a minimal Hummingbird 2 server answering one body from memory, and
        // compressing it per request with zlib when asked (as tilecast-server does).
        .systemLibrary(name: "CeilingZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .executableTarget(name: "hummingbird-ceiling",
                          dependencies: ["CeilingZlib", .product(name: "Hummingbird", package: "hummingbird"),
                                         .product(name: "NIOCore", package: "swift-nio")]),
    ]
)
