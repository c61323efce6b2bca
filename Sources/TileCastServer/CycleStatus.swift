import Catalog
import Foundation
import GridGeometry
import PointQuery

/// When a model's cycles are expected: every `intervalHours` from 00 UTC, each published about
/// `delayHours` after its start. The store does not hold this (the catalog has no per-model
/// schedule yet), so the server is told it: `--cycle-interval-hours` and `--cycle-delay-hours`,
/// by default four runs a day (00, 06, 12 and 18 UTC) extracted four hours after each start,
/// as Scripts/ops/tilecast-extract@.timer schedules them.
package struct CycleSchedule: Sendable, Equatable {
    package var intervalHours: Double = 6
    package var delayHours: Double = 4

    package init(intervalHours: Double = 6, delayHours: Double = 4) {
        self.intervalHours = intervalHours
        self.delayHours = delayHours
    }

    /// Seconds after its start from which a cycle is older than the next one should be: the
    /// next cycle starts an interval later and is published its delay after that.
    var staleAfter: Int64 { Int64((intervalHours + delayHours) * 3600) }
}

/// `GET /v1/cycles`: what the page says about the state of the store, in one place: the newest
/// cycle of each model, how old it is now (the server's clock, which tests fix), how far it
/// reaches, whether it is late or ends before now (with the warning in words), and each
/// domain's outline in longitude/latitude for the page's picture of where the model is.
enum CycleStatus {
    /// Points along each edge of a domain's outline: a Lambert grid's edges curve in lon/lat.
    static let pointsPerEdge = 8

    static func json(stores: [ForecastStore], schedule: CycleSchedule, now: Int64, warningRules: Bool = false) -> String {
        var out = "{\"now\":\(JSONText.quoted(ModelTime.isoMinutes(now))),\"now_unixtime\":\(now)"
        // Whether `/v1/warnings` has rules to answer by (the page asks it only then).
        out += ",\"warning_rules\":\(warningRules)"
        out += ",\"interval_hours\":\(JSONText.number(schedule.intervalHours)),\"delay_hours\":\(JSONText.number(schedule.delayHours))"
        out += ",\"models\":[" + stores.sorted { $0.model < $1.model }.map { model($0, schedule: schedule, now: now) }.joined(separator: ",") + "]}"
        return out
    }

    static func model(_ store: ForecastStore, schedule: CycleSchedule, now: Int64) -> String {
        let cycle = store.domains.first?.metadata.cycle ?? 0
        let last = store.domains.compactMap { $0.metadata.times.last }.max() ?? cycle
        let first = store.domains.compactMap { $0.metadata.times.first }.min() ?? cycle
        let warnings = Self.warnings(model: store.model, cycle: cycle, last: last, schedule: schedule, now: now)
        var out = "{\"model\":\(JSONText.quoted(store.model))"
        out += ",\"model_title\":\(JSONText.quoted(store.domains.first?.metadata.modelTitle ?? ""))"
        out += ",\"cycle\":\(JSONText.quoted(ModelTime.isoMinutes(cycle))),\"cycle_unixtime\":\(cycle)"
        out += ",\"age_seconds\":\(now - cycle)"
        out += ",\"first\":\(JSONText.quoted(ModelTime.isoMinutes(first))),\"first_unixtime\":\(first)"
        out += ",\"last\":\(JSONText.quoted(ModelTime.isoMinutes(last))),\"last_unixtime\":\(last)"
        out += ",\"growing\":\(store.growingReaches != nil)"
        out += ",\"stale\":\(!warnings.isEmpty),\"warnings\":[" + warnings.map(JSONText.quoted).joined(separator: ",") + "]"
        // The page's "Aloft" table: what of it the cycle holds (empty for a surface cycle).
        out += ",\"aloft\":[" + Page.aloft(held: store.availableVariables).map { JSONText.quoted($0.rawValue) }.joined(separator: ",") + "]"
        out += ",\"domains\":[" + store.domains.reversed().map(domain).joined(separator: ",") + "]}"
        return out
    }

    /// Why a person should not take the model's numbers as today's forecast, if they should not.
    static func warnings(model: String, cycle: Int64, last: Int64, schedule: CycleSchedule, now: Int64) -> [String] {
        var warnings: [String] = []
        let age = now - cycle
        if age > schedule.staleAfter {
            warnings.append("The newest \(model.uppercased()) run (\(spoken(cycle))) is \(duration(age)) old: a new run is expected every "
                + "\(JSONText.short(schedule.intervalHours)) h, about \(JSONText.short(schedule.delayHours)) h after it starts.")
        }
        if last < now {
            warnings.append("It ends at \(spoken(last)), before now: it has no forecast for the coming hours.")
        }
        return warnings
    }

    /// "22 Nov 00 UTC".
    static func spoken(_ time: Int64) -> String {
        let iso = ModelTime.isoMinutes(time)   // 2026-11-22T00:00Z
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = iso.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return iso }
        let clock = iso.dropFirst(11).prefix(5)
        let hour = clock.hasSuffix(":00") ? String(clock.prefix(2)) : String(clock)
        return "\(parts[2]) \(months[parts[1] - 1]) \(parts[0]) \(hour) UTC"
    }

    /// "3 h", "4 days".
    static func duration(_ seconds: Int64) -> String {
        let hours = seconds / 3600
        if hours < 48 { return "\(hours) h" }
        return "\(hours / 24) days"
    }

    static func domain(_ domain: StoredDomain) -> String {
        let times = domain.metadata.times
        var out = "{\"domain\":\(JSONText.quoted(domain.name))"
        out += ",\"grid_spacing_km\":\(JSONText.number(domain.metadata.projection.dx / 1000))"
        out += ",\"first\":\(JSONText.quoted(ModelTime.isoMinutes(times.first ?? 0))),\"last\":\(JSONText.quoted(ModelTime.isoMinutes(times.last ?? 0)))"
        out += ",\"outline\":[" + outline(domain.grid).map { "[\(rounded($0.longitude)),\(rounded($0.latitude))]" }.joined(separator: ",") + "]}"
        return out
    }

    /// The grid's edge, south-west corner first, counter-clockwise, in lon/lat.
    static func outline(_ grid: ProjectedGrid) -> [(longitude: Double, latitude: Double)] {
        let east = Double(grid.westEast - 1), north = Double(grid.southNorth - 1)
        let corners = [(0.0, 0.0), (east, 0.0), (east, north), (0.0, north)]
        var points: [(longitude: Double, latitude: Double)] = []
        for k in 0..<4 {
            let (a, b) = (corners[k], corners[(k + 1) % 4])
            for step in 0..<pointsPerEdge {
                let f = Double(step) / Double(pointsPerEdge)
                let point = grid.point(at: GridPosition(i: a.0 + (b.0 - a.0) * f, j: a.1 + (b.1 - a.1) * f))
                if point.latitude.isFinite, point.longitude.isFinite { points.append((point.longitude, point.latitude)) }
            }
        }
        return points
    }

    static func rounded(_ value: Double) -> String { JSONText.short((value * 1000).rounded() / 1000) }
}
