import Catalog
import Dispatch
import Foundation
import Synchronization

/// Where `serve --access-log` writes: standard error (the default, as before), a file
/// (appended), or nowhere.
package enum AccessLogDestination: Sendable, Equatable {
    case standardError
    case file(String)
    case off

    /// `--access-log`'s value: `-` standard error, `off`, else a file's path.
    package init(argument: String) {
        switch argument {
        case "-", "stderr": self = .standardError
        case "off": self = .off
        default: self = .file(argument)
        }
    }
}

/// Why `--access-log FILE` cannot be used.
package struct AccessLogError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String
    package var description: String { "\(path): cannot write the access log: \(reason)" }
}

/// The access log: one line a request, "2026-12-05T12:00:00Z GET /target 200 1.23ms", written
/// off the request path (issue 48). A request appends its line to a buffer under a lock (no
/// system call, no date formatting: the second's stamp is kept); the buffer goes to the file in
/// one write every 100 ms, sooner when 256 KiB wait, and when the server stops. Before, each
/// request formatted a date (swift-log's stream handler, strftime) and wrote its own line.
package final class AccessLog: Sendable {
    private struct Pending {
        var bytes: [UInt8] = []
        var second: Int64 = -1
        var stamp: [UInt8] = []
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let pending = Mutex(Pending())
    /// One flush at a time, in order.
    private let writing = Mutex(())
    nonisolated(unsafe) private let timer: DispatchSourceTimer?
    static let flushBytes = 256 << 10

    package var isOn: Bool { descriptor >= 0 }

    /// - Throws: `AccessLogError` when the file cannot be opened for appending.
    package static func open(_ destination: AccessLogDestination) throws(AccessLogError) -> AccessLog {
        switch destination {
        case .off: return AccessLog(descriptor: -1, owns: false)
        case .standardError: return AccessLog(descriptor: STDERR_FILENO, owns: false)
        case .file(let path):
            let opened = Foundation.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw AccessLogError(path: path, reason: String(cString: strerror(errno))) }
            return AccessLog(descriptor: opened, owns: true)
        }
    }

    /// Standard error's log, one for the process (in-process servers of the tests share it).
    package static let standardError = AccessLog(descriptor: STDERR_FILENO, owns: false)

    private init(descriptor: Int32, owns: Bool) {
        self.descriptor = descriptor
        ownsDescriptor = owns
        guard descriptor >= 0 else {
            timer = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100), leeway: .milliseconds(20))
        self.timer = timer
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
    }

    deinit {
        timer?.cancel()
        flush()
        if ownsDescriptor { close(descriptor) }
    }

    /// Appends one request's line.
    func record(method: String, target: Substring, status: Int, hundredths: Int64) {
        guard descriptor >= 0 else { return }
        let fraction = hundredths % 100
        let rest = " \(method) \(target) \(status) \(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)ms\n"
        let now = Int64(time(nil))
        let waiting = pending.withLock { pending -> Int in
            if pending.second != now {
                pending.second = now
                pending.stamp = Array(ModelTime.iso(now).utf8)
            }
            pending.bytes.append(contentsOf: pending.stamp)
            pending.bytes.append(contentsOf: rest.utf8)
            return pending.bytes.count
        }
        if waiting >= Self.flushBytes { DispatchQueue.global(qos: .utility).async { self.flush() } }
    }

    /// Writes what waits; called by the timer, when much waits, and when the server stops.
    package func flush() {
        guard descriptor >= 0 else { return }
        writing.withLock { _ in
            let bytes = pending.withLock { pending -> [UInt8] in
                var taken: [UInt8] = []
                swap(&taken, &pending.bytes)
                return taken
            }
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count, let base = buffer.baseAddress {
                    let written = write(descriptor, base + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        // A full disk or a closed pipe: the lines are dropped, the server goes on.
                        break
                    }
                }
            }
        }
    }
}
