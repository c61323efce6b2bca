import Foundation

/// A domain's name as WRF numbers them and every message and file name says it: "d01",
/// "d02", ... "d10". The one place this is spelled.
package func domainName(_ id: Int) -> String {
    (id >= 0 && id < 10 ? "d0" : "d") + String(id)
}

/// The size of the file at `path`, following links (a symlinked input is sized as the file it
/// names); nil when there is none. The one place sizes are read.
package func fileSize(atPath path: String) -> Int64? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int64(status.st_size)
}

/// The version written into store files and manifests, printed by `tilecast --version`, and
/// part of the server's `BuildIdentity` (hashed into its ETags with the executable's checksum).
package enum TileCastVersion {
    package static let current = "0.1.0"
}
