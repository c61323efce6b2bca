import Extraction
import ModelIngest
import NetCDF
import TileCastCommandLine
import TileStore

/// Runs a command body, converting any library error into a `Failure` with the status the one
/// rule gives it (`ExitStatus(for:)`).
func reporting<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch { throw Failure(error) }
}
