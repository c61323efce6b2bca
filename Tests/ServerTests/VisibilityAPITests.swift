import Foundation
import TestSupport
import XCTest

/// `/v1/forecast?hourly=visibility` (issue 11) on a store of `Scripts/make_fog_sample.py`'s copy
/// of the real allvars sample: Open-Meteo's name and unit (m, ft with inches), the fog code.
final class VisibilityAPITests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var store: String!

    override func setUpWithError() throws {
        let check = try runTool("python3", ["-c", "import numpy, netCDF4"])
        try XCTSkipIf(check.status != 0, "python3 with numpy and netCDF4 is needed: \(check.stderr)")
        directory = try TemporaryDirectory("tilecast-server-visibility")
        let fog = directory.path("wrfout_d01_fog.nc")
        let made = try runTool("python3", [Repository.root.appendingPathComponent("Scripts/make_fog_sample.py").path,
                                           try Repository.sharedSample("wrf_d01_allvars_cropped.nc"), fog])
        XCTAssertEqual(made.status, 0, made.stderr)
        store = directory.path("store")
        let result = try StoreMaker.run(["extract", fog, "--store", store, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    func testVisibilityInMetresAndFeetWithTheFogCode() async throws {
        // Grid node (j 2, i 2): fog of 56.0 m (Scripts/visibility_reference.py) at 06Z, T2 9.4 °C.
        let place = "latitude=29.592853546142578&longitude=86.22445678710938&start_hour=2005-09-21T03:00&end_hour=2005-09-21T06:00"
        try await LiveServer.with(configuration(store)) { server in
            let metres = try await server.get("/v1/forecast?\(place)&hourly=visibility,weather_code")
            XCTAssertEqual(metres.status, 200, metres.body)
            let units = try XCTUnwrap(metres.object?["hourly_units"] as? [String: String])
            XCTAssertEqual(units["visibility"], "m")
            let hourly = try XCTUnwrap(metres.object?["hourly"] as? [String: Any])
            let seen = try XCTUnwrap(hourly["visibility"] as? [Double], metres.body)
            XCTAssertEqual(seen.count, 4)
            XCTAssertEqual(try XCTUnwrap(seen.last), 55.98, accuracy: 3, "the reference's fog, within the 5 m store step")
            XCTAssertEqual((hourly["weather_code"] as? [Int])?.last, 45)
            let feet = try await server.get("/v1/forecast?\(place)&hourly=visibility&precipitation_unit=inch")
            XCTAssertEqual(feet.status, 200, feet.body)
            XCTAssertEqual((feet.object?["hourly_units"] as? [String: String])?["visibility"], "ft")
            let inFeet = try XCTUnwrap((feet.object?["hourly"] as? [String: Any])?["visibility"] as? [Double])
            for (m, ft) in zip(seen, inFeet) { XCTAssertEqual(ft, m * 3.280839895, accuracy: 0.5 + 0.5 * 3.28084) }
        }
    }
}
