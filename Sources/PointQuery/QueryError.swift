import Catalog
import TileStore

/// Why a query has no answer, and the exit status the command line ends with for it.
public enum QueryError: ExitCoded, Sendable, Equatable, CustomStringConvertible {
    /// The place lies in no domain's interior; lists every domain's extent.
    case outsideDomains(latitude: Double, longitude: Double, extents: [String])
    /// The time lies outside what the chosen (or any) domain holds.
    case outsideTimes(requested: String, available: String)
    /// A bad request: unknown variable, bad point, bad time.
    case badRequest(String)
    /// The store could not answer: missing, unreadable or damaged (the error names the file).
    case store(StoreError)

    public var exitCode: ExitStatus {
        switch self {
        case .outsideDomains, .outsideTimes: return .outsideStore
        case .badRequest: return .badUsage
        case .store(let error): return error.exitCode
        }
    }

    public var description: String {
        switch self {
        case .outsideDomains(let latitude, let longitude, let extents):
            return "\(Self.coordinate(latitude, "N", "S")) \(Self.coordinate(longitude, "E", "W")) is outside every domain of the store: " + extents.joined(separator: "; ")
        case .outsideTimes(let requested, let available):
            return "time \(requested) is outside the run (\(available))"
        case .badRequest(let message):
            return message
        case .store(let error):
            return error.description
        }
    }

    static func coordinate(_ value: Double, _ positive: String, _ negative: String) -> String {
        (value.magnitude * 10_000).rounded() / 10_000 == 0 ? "0" : "\(((value.magnitude * 10_000).rounded() / 10_000))\(value < 0 ? negative : positive)"
    }
}
