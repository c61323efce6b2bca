import Catalog
import Foundation
import GridGeometry
@testable import PointQuery
import TestSupport
import XCTest

/// Time plans are shared between forecasts of the same times (`TimePlan.of`): a shared plan
/// must be the one its own frames give, never another domain's or another window's.
final class TimePlanSharingTests: XCTestCase {
    func testASharedPlanIsTheOneItsOwnFramesGive() throws {
        let directory = try TemporaryDirectory()
        // Three domains alike but for their frames: hourly, three-hourly, and hourly from half
        // an hour later. Each in a store of its own, opened side by side.
        let frameSets: [[Int64]] = [
            SyntheticStore.hourly(30),
            (0..<10).map { SyntheticStore.cycle + Int64($0) * 10_800 },
            SyntheticStore.hourly(30, from: SyntheticStore.cycle + 1800),
        ]
        var stores: [ForecastStore] = []
        for (k, frames) in frameSets.enumerated() {
            let domain = SyntheticDomain(id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000,
                                         southWestCorner: GeoPoint(latitude: 38.5, longitude: -9.4), times: frames,
                                         variables: [.temperature2m, .precipitation]) { _, _, _, t in Float(t) }
            try SyntheticStore.write([domain], to: directory.path("store\(k)"), model: "synthetic")
            stores.append(try ForecastStore(root: directory.path("store\(k)")))
        }
        let times = ForecastRequest.hourly(from: SyntheticStore.cycle + 3600, hours: 12)
        var compared = 0
        // Twice round, two windows: every plan asked for while the others' are recent.
        for _ in 0..<2 {
            for window: Int64 in [3600, 10_800] {
                for store in stores {
                    let domain = try XCTUnwrap(store.domains.first)
                    let shared = TimePlan.of(times: times, window: window, domain: domain)
                    let fresh = TimePlan(times: times, window: window, domain: domain)
                    XCTAssertEqual(shared.brackets, fresh.brackets)
                    XCTAssertEqual(shared.windowStarts, fresh.windowStarts)
                    XCTAssertEqual(shared.onFirstFrame, fresh.onFirstFrame)
                    XCTAssertEqual(shared.framesNeeded, fresh.framesNeeded)
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 12)
        // The three frame sets do give different plans: the test would see a wrong share.
        let plans = try stores.map { TimePlan(times: times, window: 3600, domain: try XCTUnwrap($0.domains.first)).brackets }
        XCTAssertNotEqual(plans[0], plans[1])
        XCTAssertNotEqual(plans[0], plans[2])
    }
}
