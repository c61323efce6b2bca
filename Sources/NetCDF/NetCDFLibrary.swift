import CNetCDFLoader
import Foundation
import Synchronization

/// The one place every libnetcdf call goes through.
///
/// libnetcdf (and the HDF5 library under it) is not thread-safe, so each call runs under a
/// process-wide lock; a non-zero status becomes a thrown `NetCDFError` naming file and variable.
enum NetCDFLibrary {
    private static let lock = Mutex(())

    /// Runs one C call under the lock and throws on a non-zero status.
    static func call(
        path: String, variable: String? = nil, _ operation: @autoclosure () -> String,
        _ body: () -> Int32
    ) throws(NetCDFError) {
        let status = locked(body)
        if status != TC_NC_NOERR {
            throw NetCDFError(status: NetCDFStatus(rawValue: status), path: path, variable: variable,
                              operation: operation())
        }
    }

    /// Runs a block under the lock without interpreting its result (for composite reads).
    static func locked<T>(_ body: () -> T) -> T {
        lock.withLock { _ in body() }
    }
}
