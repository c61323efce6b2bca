// libFuzzer target: a `/v1/forecast` request's parameters, as the server reads them.
//
// The input's first line is the request target's query (only the bytes an HTTP/1.1 parser lets
// through in a target: no spaces or control characters), parsed by Hummingbird's URI as the
// routes parse it; what follows a newline is a POST's form body. Both go through
// `ForecastServer.parameters(target:formBody:)`, the routes' own steps.
//
// Contract checked (SPEC section 8, "malformed, missing and out-of-range parameters"): either
// parameters within every documented limit (1...1000 places, coordinates in range, one
// elevation and location_id per place or none, days and hours within their bounds), whose
// times `RequestTimes` works out or refuses with a 400; or an `APIError` 400 with a reason, its
// body valid JSON that gives the reason back. Never a crash, never another status.
import Foundation
import FuzzDriver
import TileCastServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForecastParameters(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: 0x0A)
    let query = bytes[..<(newline ?? size)].filter { $0 > 0x20 && $0 != 0x7F }
    let target = "/v1/forecast?" + String(decoding: query, as: UTF8.self)
    let body = newline.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
    do {
        let parameters = try ForecastServer.parameters(target: target, formBody: body)
        checkLimits(parameters)
        checkTimes(parameters)
    } catch {
        checkRefusal(error)
    }
    // The same query as an OpenWeatherMap request (OpenWeatherMapParameters.swift).
    checkOpenWeatherMap(String(decoding: query, as: UTF8.self))
    // And as a QWeather request (QWeatherParameters.swift).
    checkQWeather(String(decoding: query, as: UTF8.self))
    // And as a Caiyun request: token, place and query on three lines (CaiyunParameters.swift).
    checkCaiyun(String(decoding: bytes, as: UTF8.self))
    return 0
}

/// 2026-11-22T12:00Z: the sample run's day, so that dates near it are plausible requests.
let now: Int64 = 1_795_348_800

func checkLimits(_ p: ForecastParameters) {
    let count = p.latitudes.count
    if let box = p.boundingBox {
        // A box replaces the places (its cells are found against a store, not here).
        guard count == 0, p.longitudes.isEmpty, box.south < box.north, box.west < box.east, (-90...90).contains(box.south),
              (-90...90).contains(box.north), (-180...180).contains(box.west), (-180...180).contains(box.east), p.placeZones.isEmpty else {
            fatalError("accepted the box \(box) with \(count) places and \(p.placeZones.count) zones")
        }
    } else {
        guard count >= 1, count <= ForecastParameters.maxPlaces, p.longitudes.count == count else {
            fatalError("accepted \(count) latitudes and \(p.longitudes.count) longitudes")
        }
        guard p.placeZones.isEmpty || p.placeZones.count == count else { fatalError("accepted \(p.placeZones.count) zones for \(count) places") }
    }
    // Several start/end ranges: one per place, or all for one place (or a box's cells).
    guard p.ranges.isEmpty || (p.ranges.count > 1 && (p.boundingBox != nil || count == 1 || p.ranges.count == count)) else {
        fatalError("accepted \(p.ranges.count) ranges for \(count) places")
    }
    for (latitude, longitude) in zip(p.latitudes, p.longitudes) {
        guard latitude.isFinite, abs(latitude) <= 90, longitude.isFinite, longitude >= -180, longitude <= 360 else {
            fatalError("accepted the place \(latitude), \(longitude)")
        }
    }
    guard p.elevations.isEmpty || p.elevations.count == count, p.locationIDs.isEmpty || p.locationIDs.count == count else {
        fatalError("accepted \(p.elevations.count) elevations and \(p.locationIDs.count) location ids for \(count) places")
    }
    for case let elevation? in p.elevations where !elevation.isFinite { fatalError("accepted the elevation \(elevation)") }
    let t = p.times
    let hours = ForecastParameters.maxDays * 24
    guard (0...ForecastParameters.maxDays).contains(t.forecastDays), (0...ForecastParameters.maxPastDays).contains(t.pastDays),
          t.forecastHours.map({ (0...hours).contains($0) }) ?? true,
          t.pastHours.map({ (0...(ForecastParameters.maxPastDays * 24)).contains($0) }) ?? true else {
        fatalError("accepted the times \(t)")
    }
    guard p.hourly.count <= p.hourlyColumns.count, p.daily.count <= p.dailyColumns.count, p.current.count <= p.currentColumns.count else {
        fatalError("more variables than columns")
    }
}

/// The times of the first and last place (a box's: in the request's zone), for the first and
/// last range, as the engine works them out: an answer or a 400.
func checkTimes(_ p: ForecastParameters) {
    let zones: [(zone: TimeZone, name: String)] = p.latitudes.isEmpty ? [(p.timeZone, p.timeZoneName)]
        : Set([0, p.latitudes.count - 1]).sorted().map { p.zone(index: $0, latitude: p.latitudes[$0], longitude: p.longitudes[$0]) }
    let selections = p.ranges.isEmpty ? [p.times] : [p.ranges[0], p.ranges[p.ranges.count - 1]]
    for (zone, name) in zones {
        for selection in selections { checkTimes(selection, zone: zone, name: name) }
    }
}

func checkTimes(_ selection: TimeSelection, zone: TimeZone, name: String) {
    do {
        let times = try RequestTimes(selection, zone: zone, zoneName: name, now: now)
        // Hours of the longest range, more entries for a step under an hour (temporal_resolution).
        let perHour = Int(max(1, 3600 / max(1, times.hourlyStep)))
        guard times.hourly.count <= (ForecastParameters.maxDays + ForecastParameters.maxPastDays + 2) * 25 * perHour,
              times.days.count == times.dayStarts.count else {
            fatalError("\(times.hourly.count) hours, \(times.days.count) days for \(selection)")
        }
    } catch {
        checkRefusal(error)
    }
}

func checkRefusal(_ error: APIError) {
    guard error.status == .badRequest, !error.reason.isEmpty else { fatalError("refused with \(error.status): \(error.reason)") }
    let body = Data(error.body.utf8)
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any], object["error"] as? Bool == true,
          object["reason"] as? String == error.reason else {
        fatalError("the error body is not the reason as JSON: \(error.body)")
    }
}

// MARK: - entry point

/// SwiftPM names this executable's entry point `FuzzForecastParameters_main`; libFuzzer takes over.
@_cdecl("FuzzForecastParameters_main")
public func fuzzForecastParametersMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    // timezone=auto reads the time-zone table (the resource folder beside this binary): without
    // it every place would be GMT and the zones' paths would go unfuzzed, so stop here instead.
    if case .failure(let error) = TimeZoneTable.loaded {
        FileHandle.standardError.write(Data("FuzzForecastParameters: \(error)\n".utf8))
        return 1
    }
    return tilecast_fuzz_main(argc, argv)
}
