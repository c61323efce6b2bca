import Catalog
import Foundation
import GridGeometry
import PointQuery
import TestSupport
import XCTest

/// The rules the command line and a server share (issue 13 items 7 and 10): default times
/// with an injected clock, a cycle other than the latest, answers assembled place by place.
final class QueryPolicyTests: XCTestCase {
    private let cycle = SyntheticStore.cycle            // 2026-11-22T00:00Z
    private var run: [Int64] { SyntheticStore.hourly(49) } // 00Z .. +48 h

    func testDefaultTimesFromTheCurrentHourInsideTheRun() {
        let now = cycle + 5 * 3600 + 1234                  // 05:20:34Z
        let chosen = QueryTimes.choose(time: nil, start: nil, hours: nil, run: run, now: now)
        XCTAssertEqual(chosen.times.first, cycle + 5 * 3600, "floored to the hour")
        XCTAssertEqual(chosen.times.count, 24)
        XCTAssertEqual(chosen.times.last, cycle + 28 * 3600)
        XCTAssertNil(chosen.note)
    }

    func testDefaultTimesAreClippedToTheRunsEnd() {
        let chosen = QueryTimes.choose(time: nil, start: nil, hours: 6, run: run, now: cycle + 46 * 3600)
        XCTAssertEqual(chosen.times, [46, 47, 48].map { cycle + $0 * 3600 })
    }

    func testOutsideTheRunAnswersFromItsFirstTimeWithANote() throws {
        for now in [cycle - 3600, cycle + 49 * 3600, Int64(0)] {
            let chosen = QueryTimes.choose(time: nil, start: nil, hours: nil, run: run, now: now)
            XCTAssertEqual(chosen.times, SyntheticStore.hourly(24))
            XCTAssertTrue(try XCTUnwrap(chosen.note).contains("2026-11-22T00:00Z..2026-11-24T00:00Z"))
        }
        let short = QueryTimes.choose(time: nil, start: nil, hours: 72, run: SyntheticStore.hourly(4), now: 0)
        XCTAssertEqual(short.times.count, 4, "no more hours than the run holds")
    }

    func testGivenTimesWin() {
        XCTAssertEqual(QueryTimes.choose(time: cycle + 60, start: nil, hours: nil, run: run, now: 0).times, [cycle + 60])
        XCTAssertEqual(QueryTimes.choose(time: nil, start: cycle, hours: 3, run: run, now: 0).times, SyntheticStore.hourly(3))
        XCTAssertEqual(QueryTimes.choose(time: nil, start: cycle, hours: nil, run: [], now: 0).times.count, 24)
    }

    /// Two cycles: `latest` is the newer; the older is read when named in any time form.
    func testANonLatestCycle() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path("store")
        for (offset, value) in [(Int64(-12 * 3600), Float(1)), (0, 2)] {
            let start = cycle + offset
            let domain = SyntheticDomain(id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000,
                                         southWestCorner: GeoPoint(latitude: 38.5, longitude: -9.4),
                                         times: SyntheticStore.hourly(24, from: start), variables: [.temperature2m]) { _, _, _, _ in value }
            try SyntheticStore.write([domain], to: root, cycle: start)
        }
        let request = ForecastRequest(times: [cycle + 3600], variables: [.temperature2m])
        let place = QueryPoint(latitude: 38.55, longitude: -9.35)
        let latest = try PointForecaster(store: try ForecastStore(root: root)).forecast(place, request: request)
        XCTAssertEqual(latest.provenance.cycle, "2026-11-22T00:00Z")
        XCTAssertEqual(latest.values[.temperature2m]?.first ?? .nan, 2, accuracy: 1e-4)
        for form in ["2026-11-21T12Z", "2026-11-21T12:00Z", "2026-11-21 12:00", "2026-11-21_12:00:00"] {
            let store = try ForecastStore(root: root, cycle: XCTUnwrap(CycleSelector(parsing: form)))
            XCTAssertEqual(store.cycle, "2026-11-21T12Z", form)
            let older = try PointForecaster(store: store).forecast(place, request: request)
            XCTAssertEqual(older.provenance.cycle, "2026-11-21T12:00Z")
            XCTAssertEqual(older.values[.temperature2m]?.first ?? .nan, 1, accuracy: 1e-4)
        }
        XCTAssertThrowsError(try ForecastStore(root: root, cycle: XCTUnwrap(CycleSelector(parsing: "2026-11-20T00Z")))) { error in
            XCTAssertTrue("\(error)".contains("2026-11-21T12Z, 2026-11-22T00Z"), "lists what is published: \(error)")
        }
    }

    /// The streamed batch equals the one-place answers, in order, across chunk boundaries,
    /// with daily summaries in UTC when no zone is given.
    func testAnswersStreamInOrderAcrossChunks() throws {
        let directory = try TemporaryDirectory()
        let domain = SyntheticDomain(id: 1, parent: nil, westEast: 6, southNorth: 6, dx: 9000,
                                     southWestCorner: GeoPoint(latitude: 38.5, longitude: -9.4),
                                     times: SyntheticStore.hourly(30), variables: [.temperature2m]) { _, i, j, t in Float(i + 10 * j + t) * 0.05 }
        try SyntheticStore.write([domain], to: directory.path("store"))
        let store = try ForecastStore(root: directory.path("store"))
        let daily = try XCTUnwrap(DailyVariable.parse("temperature_2m_max"))
        let assembly = AnswerAssembly(forecaster: PointForecaster(store: store),
                                      request: ForecastRequest(times: SyntheticStore.hourly(26), variables: [.temperature2m]),
                                      dailyVariables: [daily], timeZone: nil)
        var generator = SeededGenerator(seed: 7)
        let places = (0..<37).map { k -> (point: QueryPoint, name: String?) in
            (QueryPoint(latitude: Double.random(in: 38.4...39.0, using: &generator), longitude: Double.random(in: -9.5...(-8.8), using: &generator)), "p\(k)")
        }
        var streamed: [PlaceAnswer] = []
        assembly.answers(places, chunkSize: 5) { streamed.append($0) }
        XCTAssertEqual(streamed.map(\.name), places.map(\.name))
        XCTAssertTrue(streamed.contains { (try? $0.result.get()) == nil }, "some places fall outside")
        // Rendered on the workers: the same text as rendering each answer alone, in order.
        let layout = AnswerLayout(renderer: ForecastRenderer(timeZone: nil, dailyVariables: [daily]), format: .csv,
                                  variables: [.temperature2m], names: true)
        var rendered: [String] = []
        assembly.answers(places, chunkSize: 5, render: layout.render) { answer, text in
            XCTAssertEqual(answer.name, places[rendered.count].name)
            rendered.append(text.body + text.dailyRows.joined())
        }
        XCTAssertEqual(rendered, places.map { place in
            let text = layout.render(assembly.answer(place.point, name: place.name))
            return text.body + text.dailyRows.joined()
        })
        XCTAssertTrue(rendered.contains { $0.contains("2026-11-22T03:00Z") }, "\(rendered.prefix(2))")
        for (answer, place) in zip(streamed, places) {
            let single = assembly.answer(place.point, name: place.name)
            switch (answer.result, single.result) {
            case (.success(let a), .success(let b)):
                XCTAssertEqual(a.values[.temperature2m], b.values[.temperature2m])
                XCTAssertEqual(answer.daily?.dates, ["2026-11-22", "2026-11-23"])
                // Compared as bits: the run (00Z 22 Nov to 05Z 23 Nov) ends inside 23 Nov, so its
                // maximum is null (NaN) in both (issue 47).
                XCTAssertEqual(answer.daily?.values[daily]?.map(\.bitPattern), single.daily?.values[daily]?.map(\.bitPattern))
                XCTAssertEqual(answer.daily?.values[daily]?.last?.isNaN, true)
            case (.failure(let a), .failure(let b)):
                XCTAssertEqual(a, b)
            default:
                XCTFail("streamed and single answers disagree for \(place)")
            }
        }
    }

    /// The best match (`ModelChoice.bestMatch`): a model covering every hour wins over a finer
    /// one lacking some; the finer one answers only where the other does not hold the place,
    /// for the hours it has (the API) or for all of them (the command line, which then refuses).
    func testBestMatchPrefersAModelHoldingEveryHour() throws {
        let directory = try TemporaryDirectory()
        let root = directory.path("store")
        func model(_ name: String, dx: Double, corner: GeoPoint, hours: Int) throws {
            let domain = SyntheticDomain(id: 1, parent: nil, westEast: 6, southNorth: 6, dx: dx, southWestCorner: corner,
                                         times: SyntheticStore.hourly(hours), variables: [.temperature2m]) { _, _, _, _ in 1 }
            try SyntheticStore.write([domain], to: root, model: name, cycle: cycle)
        }
        // 9 km over 00..23Z; 3 km over 00..11Z, reaching south of the 9 km domain.
        try model("coarse", dx: 9000, corner: GeoPoint(latitude: 38.5, longitude: -9.4), hours: 24)
        try model("fine", dx: 3000, corner: GeoPoint(latitude: 38.45, longitude: -9.38), hours: 12)
        let stores = try ModelChoice.open(root: root, model: nil, cycle: XCTUnwrap(CycleSelector(parsing: "latest")), nestMargin: 5)
        XCTAssertEqual(stores.map(\.model), ["coarse", "fine"])
        func match(_ latitude: Double, _ hours: ClosedRange<Int64>, partial: Bool) throws -> (String, Int) {
            let times = hours.map { cycle + $0 * 3600 }
            let chosen = try ModelChoice.bestMatch(stores, latitude: latitude, longitude: -9.35, times: times, partialHours: partial)
            return (chosen.store.model, chosen.times.count)
        }
        for partial in [false, true] {
            XCTAssertTrue(try match(38.55, 2...8, partial: partial) == ("fine", 7), "both hold every hour: the finer")
            XCTAssertTrue(try match(38.55, 6...18, partial: partial) == ("coarse", 13), "only the coarser holds every hour")
            XCTAssertTrue(try match(38.55, 20...30, partial: partial) == ("coarse", partial ? 4 : 11), "no model holds every hour")
            XCTAssertTrue(try match(38.46, 6...18, partial: partial) == ("fine", partial ? 6 : 13), "only the finer holds the place")
        }
        XCTAssertThrowsError(try match(38.46, 14...18, partial: true)) { error in
            guard case .outsideTimes = error as? QueryError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try match(60, 2...8, partial: true)) { error in
            guard case .outsideDomains = error as? QueryError else { return XCTFail("\(error)") }
        }
    }
}
