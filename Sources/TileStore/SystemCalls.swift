#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A failed system call, with its errno kept (as swift-system's `Errno` keeps it), so that a
/// full disk, a permission problem and a missing file stay different all the way to the message
/// and the exit code.
public struct IOFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    /// The call that failed, as the message names it: "open", "write", "fsync", "rename to ..."
    public let operation: String
    /// errno.
    public let code: Int32

    package init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// The C library's text for the errno ("No space left on device").
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(path): \(operation) failed: \(reason)" }

    /// The disk or a quota is full: the operator must free room; nothing was published.
    public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }
}

/// The few system calls through which the store reads and writes, each able to fail on demand
/// in tests (root, which the tests run as, is never refused a permission, and a full disk or
/// an I/O error cannot be asked of a real disk). Production pays one relaxed atomic load.
package enum SystemCalls {
    package enum Call: Sendable, Hashable { case open, write, fsync, fsyncDirectory, rename, unlink, pread, mkdir }

    private static let armed = Atomic<Bool>(false)
    private static let injected = Mutex<[Call: Int32]>([:])

    /// From now on `call` fails with `errno` (until `reset`).
    package static func inject(_ call: Call, errno code: Int32) {
        injected.withLock { $0[call] = code }
        armed.store(true, ordering: .sequentiallyConsistent)
    }

    package static func reset() {
        injected.withLock { $0.removeAll() }
        armed.store(false, ordering: .sequentiallyConsistent)
    }

    /// The errno a test asked `call` to fail with, or nil (the usual case: no injection).
    @inline(__always)
    static func injectedFailure(_ call: Call) -> Int32? {
        guard armed.load(ordering: .relaxed) else { return nil }
        return injected.withLock { $0[call] }
    }

    /// Runs `body` unless a failure is injected for `call`; returns -1 with errno set on failure.
    @inline(__always)
    static func perform<T: BinaryInteger>(_ call: Call, _ body: () -> T) -> T {
        if let code = injectedFailure(call) {
            errno = code
            return -1
        }
        return body()
    }
}
