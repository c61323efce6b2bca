import Catalog       // ForecastVariable, CycleSelector, ExitStatus
import Extraction    // Extractor
import Foundation
import ModelIngest   // ModelRun
import PointQuery    // ForecastStore, PointForecaster, QueryPoint, ForecastRequest, QueryError
import TileStore     // StoreDescription, StoreError

let (runFolder, storeFolder) = (CommandLine.arguments[1], CommandLine.arguments[2])
do {
    // Read the run (one per model: a folder may hold WRF and MM5 output); publish each as a cycle.
    for run in try ModelRun.readRuns(paths: [runFolder]) {
        print(try Extractor(inputs: [runFolder], store: storeFolder).run(of: run).line)
    }
    print(try StoreDescription(root: storeFolder, verify: true).text)   // every checksum checked

    // A day of hourly forecasts for Lisbon from the latest WRF cycle, in °F.
    let store = try ForecastStore(root: storeFolder, model: "wrf", cycle: .latest)
    let request = ForecastRequest(times: ForecastRequest.hourly(from: store.runTimes[0], hours: 24),
                                  variables: [.temperature2m, .precipitation],
                                  units: OutputUnits(temperature: .fahrenheit))
    let forecast = try PointForecaster(store: store)
        .forecast(QueryPoint(latitude: 38.7223, longitude: -9.1393), request: request)
    print(forecast.provenance.model, forecast.provenance.cycle, forecast.provenance.domain)
    for (k, time) in forecast.times.enumerated() {
        print(Date(timeIntervalSince1970: TimeInterval(time)), forecast.values[.temperature2m]?[k] ?? .nan,
              request.units.symbol(.temperature2m), forecast.values[.precipitation]?[k] ?? .nan, "mm")
    }
} catch let error as QueryError {
    fail(error, error.exitCode)   // 2 bad request, 4 place or time outside the store, 5 store damaged
} catch let error as StoreError {
    fail(error, .damagedStore)
} catch {
    fail(error, .unusableInput)   // IngestError, NetCDFError, ExtractionError
}

func fail(_ error: any Error, _ status: ExitStatus) -> Never {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(status.rawValue)
}
