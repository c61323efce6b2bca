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

/// The sun's shared facts (`SolarTimes.of`) are those of the times and window asked for.
final class SolarTimesSharingTests: XCTestCase {
    func testSharedSolarFactsAreThoseOfTheirOwnTimes() {
        let hourly = ForecastRequest.hourly(from: SyntheticStore.cycle, hours: 24)
        let later = ForecastRequest.hourly(from: SyntheticStore.cycle + 86_400 * 100, hours: 24)
        var compared = 0
        for _ in 0..<2 {
            for times in [hourly, later] {
                for window: Int64 in [3600, 900] {
                    let shared = SolarTimes.of(times: times, window: window), fresh = SolarTimes(times: times, window: window)
                    XCTAssertEqual(shared.times, times)
                    XCTAssertEqual(shared.moments.map(\.declination), fresh.moments.map(\.declination))
                    XCTAssertEqual(shared.moments.map(\.equationOfTime), fresh.moments.map(\.equationOfTime))
                    XCTAssertEqual(shared.distances, fresh.distances)
                    XCTAssertEqual(shared.middles.map(\.middle.time), fresh.middles.map(\.middle.time))
                    XCTAssertEqual(shared.middles.map(\.distance), fresh.middles.map(\.distance))
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 8)
        // A window's middles differ with the window: the test would see a wrong share.
        XCTAssertNotEqual(SolarTimes(times: hourly, window: 3600).middles.map(\.middle.time),
                          SolarTimes(times: hourly, window: 900).middles.map(\.middle.time))
    }
}

/// The shared cycle shares (`CycleContinuity.recentShares`) are those of the cycles and times
/// asked for: the places of a request share them, never two different sets of cycles.
final class CycleSharesSharingTests: XCTestCase {
    func testSharedSharesAreThoseOfTheirOwnCycles() throws {
        let directory = try TemporaryDirectory()
        // Two runs of one model, six hours apart, each in a store of its own.
        var stores: [ForecastStore] = []
        for (k, start) in [SyntheticStore.cycle, SyntheticStore.cycle + 6 * 3600].enumerated() {
            let domain = SyntheticDomain(id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000,
                                         southWestCorner: GeoPoint(latitude: 38.5, longitude: -9.4), times: SyntheticStore.hourly(25, from: start),
                                         variables: [.temperature2m]) { _, _, _, t in Float(t) }
            try SyntheticStore.write([domain], to: directory.path("store\(k)"), model: "synthetic", cycle: start)
            stores.append(try ForecastStore(root: directory.path("store\(k)")))
        }
        let (older, newer) = (stores[0], stores[1])
        func described(_ shares: [CycleContinuity.Share]) -> [String] {
            shares.map { share in "\(share.store === newer ? "newer" : "older") \(share.times)" }
        }
        let early = ForecastRequest.hourly(from: SyntheticStore.cycle, hours: 12)
        let late = ForecastRequest.hourly(from: SyntheticStore.cycle + 12 * 3600, hours: 12)
        var compared = 0
        for _ in 0..<2 {
            for cycles in [[newer, older], [newer], [older]] {
                for times in [early, late] {
                    XCTAssertEqual(described(CycleContinuity.recentShares(of: times, among: cycles)),
                                   described(CycleContinuity.shares(of: times, among: cycles)))
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 12)
        // The cycles do change the shares: the test would see a wrong share.
        XCTAssertNotEqual(described(CycleContinuity.shares(of: early, among: [newer, older])),
                          described(CycleContinuity.shares(of: early, among: [newer])))
    }
}
