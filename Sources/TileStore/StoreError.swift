import Catalog
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a store could not be read or written. Damage is always reported as damage: a reader
/// never returns numbers from a block whose checksum or bounds do not hold.
public enum StoreError: ExitCoded, Sendable, Equatable, CustomStringConvertible {
    /// No store, model, cycle or domain file where one was expected.
    case missing(path: String, what: String)
    /// A file is not a TileCast store file (wrong magic).
    case notAStoreFile(path: String)
    /// A file of a newer (or unknown) format version than this build reads.
    case unsupportedVersion(path: String, found: UInt32, supported: UInt32)
    /// A file is shorter than its own structure says.
    case truncated(path: String, detail: String)
    /// A checksum does not match: the bytes changed after they were written.
    case checksumMismatch(path: String, part: String)
    /// The structure is inconsistent (offsets out of bounds, impossible sizes, bad metadata).
    case corrupt(path: String, detail: String)
    /// Writing failed for a reason that is not a system call's (an injected test fault, a
    /// Foundation error without errno).
    case writeFailed(path: String, detail: String)
    /// A system call failed; its errno is kept (full disk, permission denied, I/O error, ...).
    case io(IOFailure)
    /// Something in the store is not what the store made (a symbolic link where a plain file
    /// or folder belongs, a link naming a place outside the store): refused, never followed.
    case unsafe(path: String, detail: String)
    /// No published cycle where one was asked for: a store or model never published into, or
    /// a named cycle that is not there (`cycle` nil means "latest"). Not damage.
    case noCycle(address: String, model: String?, cycle: String?)
    /// An object server could not be asked, or did not answer (refused, timed out, an HTTP
    /// status other than 404): nothing is known of the bytes, so this is not damage.
    case unreachable(address: String, detail: String)
    /// No cycle of a model is open yet from an object store: the first look at `latest` is
    /// under way, or failing (`problem`).
    case notOpenedYet(model: String, location: String, problem: String?)
    /// Another extraction holds the store's lock.
    case locked(path: String, holder: String)
    /// A request the store cannot answer (unknown variable, cell outside the grid).
    case badRequest(String)

    public var description: String {
        switch self {
        case .missing(let path, let what): return "\(path): \(what) not found"
        case .notAStoreFile(let path): return "\(path): not a TileCast store file (bad magic number)"
        case .unsupportedVersion(let path, let found, let supported):
            return "\(path): store format version \(found) is newer than this tilecast reads (\(supported)): upgrade tilecast"
        case .truncated(let path, let detail): return "\(path): store file truncated (\(detail))"
        case .checksumMismatch(let path, let part): return "\(path): store file damaged: checksum mismatch in \(part)"
        case .corrupt(let path, let detail): return "\(path): store file damaged: \(detail)"
        case .writeFailed(let path, let detail): return "\(path): write failed: \(detail)"
        case .io(let failure):
            return failure.description + (failure.isNoSpace ? " (free some room; nothing was published)" : "")
        case .unsafe(let path, let detail):
            return "\(path): \(detail): refusing to use it (the store never makes one; remove it if you did not put it there on purpose)"
        case .noCycle(let address, let model, let cycle):
            let what = cycle.map { "no cycle \($0)" } ?? "no published cycle"
            return "\(address): \(what)\(model.map { " of \($0)" } ?? "")" + (cycle == nil ? " (publish one first: tilecast extract)" : "")
        case .unreachable(let address, let detail): return "\(address): \(detail)"
        case .notOpenedYet(let model, let location, let problem):
            return "no cycle of \(model) opened yet from \(location): " + (problem ?? "the first look at latest is under way")
        case .locked(let path, let holder): return "\(path): another extraction is writing this store (\(holder)); try again when it has finished"
        case .badRequest(let detail): return detail
        }
    }

    /// An error of a failed system call.
    static func io(_ path: String, _ operation: String, _ code: Int32 = errno) -> StoreError {
        .io(IOFailure(path: path, operation: operation, code: code))
    }

    /// A request the store cannot answer is the request's fault (2); anything else means the
    /// store is missing, damaged, locked or cannot be written (5).
    public var exitCode: ExitStatus {
        if case .badRequest = self { return .badUsage }
        return .damagedStore
    }

    /// True for the errors that mean the store's bytes are damaged (exit code 5).
    public var isDamage: Bool {
        switch self {
        case .notAStoreFile, .truncated, .checksumMismatch, .corrupt, .unsupportedVersion, .unsafe: return true
        default: return false
        }
    }
}
