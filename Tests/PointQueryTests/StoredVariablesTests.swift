import Catalog
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// A variable the cycle does not store is an error naming what it holds (issue 16 item 8),
/// never a column of nulls with exit 0; a stored variable with missing values stays null.
final class StoredVariablesTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let corner = GeoPoint(latitude: 38.5, longitude: -9.4)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        // Temperature only; frame 2 is missing (NaN) everywhere.
        let domain = SyntheticDomain(id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000, southWestCorner: corner,
                                     times: SyntheticStore.hourly(4), variables: [.temperature2m]) { _, _, _, t in
            t == 2 ? .nan : 10
        }
        try SyntheticStore.write([domain], to: directory.path("store"))
    }

    private func forecast(_ variables: [ForecastVariable]?) throws -> PointForecast {
        let store = try ForecastStore(root: directory.path("store"))
        return try PointForecaster(store: store).forecast(QueryPoint(latitude: 38.55, longitude: -9.35),
                                                          request: ForecastRequest(times: SyntheticStore.hourly(4), variables: variables))
    }

    func testAVariableTheCycleDoesNotHoldIsAnErrorListingWhatItHolds() throws {
        XCTAssertThrowsError(try forecast([.temperature2m, .precipitation])) { error in
            guard case QueryError.badRequest(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("precipitation"), message)
            XCTAssertTrue(message.contains("temperature_2m"), "lists what the cycle holds: \(message)")
            XCTAssertEqual((error as? QueryError)?.exitCode, .badUsage)
        }
        let store = try ForecastStore(root: directory.path("store"))
        XCTAssertThrowsError(try store.resolveVariables(requested: [.windSpeed10m], daily: []))
        XCTAssertThrowsError(try store.resolveVariables(requested: nil, daily: DailyVariable.parse("precipitation_sum").map { [$0] } ?? []))
    }

    func testWithoutAListTheDefaultsAreWhatTheCycleHolds() throws {
        let forecast = try forecast(nil)
        XCTAssertEqual(forecast.variables, [.temperature2m])
        let store = try ForecastStore(root: directory.path("store"))
        XCTAssertEqual(try store.resolveVariables(requested: nil, daily: []), [.temperature2m])
    }

    func testAStoredVariableWithMissingValuesIsStillNull() throws {
        let values = try XCTUnwrap(forecast([.temperature2m]).values[.temperature2m])
        XCTAssertEqual(values.count, 4)
        XCTAssertEqual(values[0], 10, accuracy: 1e-4)
        XCTAssertTrue(values[2].isNaN, "the missing frame stays missing: \(values)")
    }
}
