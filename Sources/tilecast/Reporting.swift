import Extraction
import ModelIngest
import NetCDF
import TileCastCommandLine
import TileStore

extension Failure {
    /// Classifies an error of extraction or inspection by what it says about the input.
    init(classifying error: Error) {
        switch error {
        case let failure as Failure: self = failure
        case let ingest as IngestError: self.init(.unusableInput, ingest.description)
        case let netcdf as NetCDFError: self.init(.unusableInput, netcdf.description)
        case let extraction as ExtractionError:
            switch extraction {
            case .inputInsideStore, .prunedAtOnce: self.init(.badUsage, extraction.description)
            case .fewerDomains, .implausibleValues: self.init(.unusableInput, extraction.description)
            }
        case let store as StoreError:
            switch store {
            case .badRequest(let message): self.init(.badUsage, message)
            default: self.init(.damagedStore, store.description)
            }
        default: self.init(.unusableInput, "\(error)")
        }
    }
}

/// Runs a command body, converting any library error into a `Failure`.
func reporting<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch { throw Failure(classifying: error) }
}
