import Extraction
import ModelIngest
import NetCDF
import TileStore

/// An error on its way to the user: the message and the exit code of SPEC section 5.
struct Failure: Error {
    static let usage: Int32 = 2
    static let badInput: Int32 = 3
    static let outOfRange: Int32 = 4
    static let damagedStore: Int32 = 5

    let code: Int32
    let message: String

    /// Classifies a library error by what it says about the input.
    init(_ error: Error) {
        switch error {
        case let failure as Failure: self = failure
        case let ingest as IngestError: self.init(code: Self.badInput, message: ingest.description)
        case let netcdf as NetCDFError: self.init(code: Self.badInput, message: netcdf.description)
        case let extraction as ExtractionError:
            switch extraction {
            case .inputInsideStore: self.init(code: Self.usage, message: extraction.description)
            case .fewerDomains: self.init(code: Self.badInput, message: extraction.description)
            }
        case let store as StoreError:
            switch store {
            case .badRequest(let message): self.init(code: Self.usage, message: message)
            default: self.init(code: Self.damagedStore, message: store.description)
            }
        default: self.init(code: Self.badInput, message: "\(error)")
        }
    }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
}

/// Runs a command body, converting any library error into a `Failure`.
func reporting<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch { throw Failure(error) }
}
