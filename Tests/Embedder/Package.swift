// swift-tools-version: 6.0
// An embedder of TileCastKit, outside this package: it sees only what the library makes public
// (a test target of the main package would also see its `package` declarations). Its one file
// is README's "Using TileCastKit from Swift" example, word for word; Scripts/embedder-check
// builds and runs it.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder: the repository's folder, lower-cased
// ("main", "tilecast", ...), whatever a clone is called.
let repository = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "Embedder",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(name: "embedder-example", dependencies: [.product(name: "TileCastKit", package: repository)]),
    ]
)
