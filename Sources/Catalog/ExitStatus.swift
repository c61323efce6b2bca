/// How a TileCast command ends: the one list of the exit statuses the command line and its
/// sibling executables (`tilecast-remote`, `tilecast-server`) exit with, also printed beside
/// each place a points file could not answer.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// The answer could not be written (standard output full, closed or failing): the numbers
    /// did not reach the reader, so the command must not say it succeeded.
    case outputFailed = 1
    /// An unknown option or value, a malformed request, a variable the store does not hold.
    case badUsage = 2
    /// Model files that cannot be read or trusted.
    case unusableInput = 3
    /// A place or time outside what the store holds.
    case outsideStore = 4
    /// The store is missing or damaged.
    case damagedStore = 5
}

/// An error that says how a command meeting it ends. Every error type a command can meet
/// conforms in its own module, so one rule (`ExitStatus(for:)`) gives every executable the
/// same status for the same error (before, `extract` ended a store's refusal of a request with
/// 2 and `query` with 5).
public protocol ExitCoded: Error {
    var exitCode: ExitStatus { get }
}

extension ExitStatus {
    /// The status a command ends with for `error`: its own when it says one (`ExitCoded`), else
    /// unusable input (an error no TileCast type describes comes from reading the input).
    public init(for error: any Error) {
        self = (error as? any ExitCoded)?.exitCode ?? .unusableInput
    }
}
