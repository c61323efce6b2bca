import Catalog
import PointQuery

/// An error on its way to the user: one or two lines on stderr and the process's exit status.
package struct Failure: Error {
    package let status: ExitStatus
    package let message: String

    package init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// A query's error with the status it implies (a place outside the store is 4, ...).
    package init(_ error: QueryError) {
        self.init(error.exitCode, error.description)
    }
}

/// Runs library code, turning its `QueryError` into a `Failure`.
package func querying<T>(_ body: () throws(QueryError) -> T) throws(Failure) -> T {
    do throws(QueryError) { return try body() } catch { throw Failure(error) }
}
