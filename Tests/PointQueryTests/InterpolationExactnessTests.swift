import Catalog
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// A field linear in i, j and time interpolates exactly, anywhere inside the grid, including
/// the last row and column and exactly on nodes; precipitation windows sum exactly.
final class InterpolationExactnessTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var grid: ProjectedGrid!
    // Multiples of the 0.05 step, so every node value is stored exactly.
    private static func linear(_ i: Int, _ j: Int, _ t: Int) -> Float { 10 + 0.5 * Float(i) + 0.25 * Float(j) + 0.05 * Float(t) }

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        let domain = SyntheticDomain(
            id: 1, parent: nil, westEast: 12, southNorth: 9, dx: 9000,
            southWestCorner: GeoPoint(latitude: 38, longitude: -10), times: SyntheticStore.hourly(6),
            variables: [.temperature2m, .precipitation, .windU10m, .windV10m, .weatherCode, .elevation]) { variable, i, j, t in
                switch variable {
                case .temperature2m: return Self.linear(i, j, t)
                case .precipitation: return t == 0 ? 0 : 0.01 * Float(i + j + t)   // mm per hour
                case .windU10m: return 3
                case .windV10m: return -4
                case .weatherCode: return Float((i + j) % 2 == 0 ? 61 : 3)
                default: return Float(100 * i + 10 * j)
                }
            }
        try SyntheticStore.write([domain], to: directory.path("store"))
        grid = try ProjectedGrid(parameters: SyntheticStore.projection, westEast: 12, southNorth: 9,
                                 southWestCorner: GeoPoint(latitude: 38, longitude: -10))
    }

    private func forecaster() throws -> PointForecaster {
        PointForecaster(store: try ForecastStore(root: directory.path("store")))
    }

    /// The place at a grid position, rounded as queries round coordinates (4 decimals), and
    /// the position that rounded place really has.
    private func place(_ i: Double, _ j: Double) -> (QueryPoint, GridPosition) {
        let point = grid.point(at: GridPosition(i: i, j: j))
        let lat = (point.latitude * 10_000).rounded() / 10_000, lon = (point.longitude * 10_000).rounded() / 10_000
        return (QueryPoint(latitude: lat, longitude: lon), grid.position(of: GeoPoint(latitude: lat, longitude: lon)))
    }

    func testLinearFieldIsExactAnywhereInsideIncludingEdgesAndNodes() throws {
        let forecaster = try forecaster()
        var generator = SeededGenerator(seed: 5)
        var positions: [(Double, Double)] = (0..<200).map { _ in (Double.random(in: 0...11, using: &generator), Double.random(in: 0...8, using: &generator)) }
        positions += [(11, 8), (11, 3.5), (4.25, 8), (0, 0), (3, 4), (11, 0), (0, 8)]
        for (i, j) in positions {
            let (point, position) = place(i, j)
            guard grid.contains(position) else { continue }
            let times = [SyntheticStore.cycle, SyntheticStore.cycle + 5400, SyntheticStore.cycle + 5 * 3600]
            let forecast = try forecaster.forecast(point, request: ForecastRequest(times: times, variables: [.temperature2m]))
            for (k, time) in times.enumerated() {
                let hours = Double(time - SyntheticStore.cycle) / 3600
                let expected = 10 + 0.5 * position.i + 0.25 * position.j + 0.05 * hours
                XCTAssertEqual(Double(forecast.values[.temperature2m]?[k] ?? .nan), expected, accuracy: 1e-4, "at \(position)")
            }
            XCTAssertEqual(forecast.provenance.gridI, position.i, accuracy: 1e-3)
            XCTAssertEqual(forecast.provenance.gridJ, position.j, accuracy: 1e-3)
        }
    }

    func testWindSpeedAndDirectionComeFromInterpolatedComponents() throws {
        let (point, _) = place(5.3, 2.7)
        let request = ForecastRequest(times: [SyntheticStore.cycle + 3600], variables: [.windSpeed10m, .windDirection10m],
                                      units: OutputUnits(windSpeed: .ms))
        let forecast = try forecaster().forecast(point, request: request)
        XCTAssertEqual(forecast.values[.windSpeed10m]?[0] ?? 0, 5, accuracy: 0.01)
        // u = 3 (toward east), v = -4 (toward south): blowing from the north-west, 323.13°.
        XCTAssertEqual(forecast.values[.windDirection10m]?[0] ?? 0, 323.13, accuracy: 0.05)
    }

    func testPrecipitationHoursAndWindowsAreExact() throws {
        let (point, position) = place(4.5, 3.25)
        let times = SyntheticStore.hourly(6)
        let forecast = try forecaster().forecast(point, request: ForecastRequest(times: times, variables: [.precipitation]))
        let values = forecast.values[.precipitation] ?? []
        for t in 1..<6 {
            let expected = 0.01 * (position.i + position.j + Double(t))
            XCTAssertEqual(Double(values[t]), expected, accuracy: 0.011, "hour \(t)")
        }
        XCTAssertEqual(values[0], 0, "the simulation start has no precipitation yet")
        // Half-hourly times split each hour's amount; two halves sum to the hour.
        let halves = (1...10).map { SyntheticStore.cycle + Int64($0) * 1800 }
        let half = try forecaster().forecast(point, request: ForecastRequest(times: halves, variables: [.precipitation], accumulationWindow: 1800))
        let halfValues = half.values[.precipitation] ?? []
        for hour in 1...5 {
            XCTAssertEqual(halfValues[2 * hour - 2] + halfValues[2 * hour - 1], values[hour], accuracy: 0.002)
        }
    }

    func testWeatherCodeIsNeverAveraged() throws {
        let (point, position) = place(2.4, 1.3)
        let forecast = try forecaster().forecast(point, request: ForecastRequest(times: [SyntheticStore.cycle + 1800], variables: [.weatherCode]))
        // The nearest node is (2, 1): odd sum, code 3; never a blend such as 32.
        XCTAssertEqual(position.i.rounded(), 2)
        XCTAssertEqual(forecast.values[.weatherCode]?[0], 3)
    }

    func testOutsideTheRunAndOutsideTheGrid() throws {
        let forecaster = try forecaster()
        let (point, _) = place(3, 3)
        XCTAssertThrowsError(try forecaster.forecast(point, request: ForecastRequest(times: [SyntheticStore.cycle - 60]))) { error in
            guard case QueryError.outsideTimes = error else { return XCTFail("\(error)") }
            XCTAssertEqual((error as? QueryError)?.exitCode, .outsideStore)
        }
        let (outside, _) = place(-1.5, 3)
        XCTAssertThrowsError(try forecaster.forecast(outside, request: ForecastRequest(times: [SyntheticStore.cycle]))) { error in
            guard case QueryError.outsideDomains(_, _, let extents) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(extents.count, 1)
            XCTAssertTrue(extents[0].hasPrefix("d01 9 km: lat"), extents[0])
        }
    }
}
