import Catalog
import PointQuery

/// An error on its way to the user: one or two lines on stderr and the process's exit status.
package struct Failure: ExitCoded {
    package let status: ExitStatus
    package let message: String

    package init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// Any error with the status the one rule gives it (`ExitStatus(for:)`), and its words.
    package init(_ error: any Error) {
        if let failure = error as? Failure {
            self = failure
        } else {
            self.init(ExitStatus(for: error), String(describing: error))
        }
    }

    package var exitCode: ExitStatus { status }
}

/// Runs library code, turning its `QueryError` into a `Failure`.
package func querying<T>(_ body: () throws(QueryError) -> T) throws(Failure) -> T {
    do throws(QueryError) { return try body() } catch { throw Failure(error) }
}
