import Foundation
import TestSupport
import Meteorology
import XCTest

/// The formulas behind `--elevation` and `sunshine_duration`, against published tables and
/// pvlib's numbers (computed with pvlib 0.16.1 and written here).
final class DownscalingAndSunshineFormulaTests: XCTestCase {
    /// U.S. Standard Atmosphere 1976 (NOAA-S/T 76-1562, table I, by geometric altitude Z):
    /// from 1013.25 hPa and 15 °C at sea level, 898.76 hPa at 1,000 m, 795.01 hPa at 2,000 m,
    /// 540.48 hPa at 5,000 m. The lapse rate runs in geopotential metres, H = r0 Z / (r0 + Z)
    /// with r0 = 6,356,766 m (its eq. 18); and back down from 5,000 m to sea level.
    func testSurfacePressureFactorIsTheStandardAtmosphere() {
        func geopotential(_ z: Double) -> Double { 6_356_766 * z / (6_356_766 + z) }
        for (height, expected) in [(1000.0, 898.76), (2000.0, 795.01), (5000.0, 540.48)] {
            let pressure = 1013.25 * Downscaling.surfacePressureFactor(temperature: 15, model: 0, target: geopotential(height))
            XCTAssertEqual(pressure, expected, accuracy: 0.02, "\(height) m")
        }
        let top = geopotential(5000), kelvin = 288.15 - 0.0065 * top
        XCTAssertEqual(540.48 * Downscaling.surfacePressureFactor(temperature: kelvin - 273.15, model: top, target: 0), 1013.25, accuracy: 0.05)
        XCTAssertEqual(Downscaling.temperatureShift(model: 1000, target: 0), 6.5, accuracy: 1e-12)
        XCTAssertEqual(Downscaling.temperatureShift(model: 0, target: 1000), -6.5, accuracy: 1e-12)
        XCTAssertEqual(Downscaling.surfacePressureFactor(temperature: 10, model: 321, target: 321), 1)
    }

    /// pvlib.irradiance.erbs (dni) and get_extra_radiation (Spencer) at five cases: sunny,
    /// winter, low sun, high sun, beyond 87° zenith (no DNI).
    func testErbsDirectNormalMatchesPvlib() {
        let cases: [(ghi: Double, zenith: Double, day: Int, dni: Double, extra: Double)] = [
            (800, 30, 172, 696.885128765351, 1321.6235925714136),
            (300, 60, 1, 118.88612701940977, 1413.981805),
            (50, 80, 264, 5.50663232528206, 1355.052052083609),
            (1000, 10, 100, 826.1661962894772, 1360.7897915626618),
            (400, 88, 200, 0, 1321.7686199481045),
        ]
        for c in cases {
            XCTAssertEqual(Sunshine.extraterrestrial(dayOfYear: c.day), c.extra, accuracy: 1e-6, "day \(c.day)")
            XCTAssertEqual(Sunshine.directNormal(global: c.ghi, zenith: c.zenith, dayOfYear: c.day), c.dni, accuracy: 1e-6, "\(c)")
        }
        XCTAssertEqual(Sunshine.directNormal(direct: 500, zenith: 60), 1000, accuracy: 1e-9)
        XCTAssertTrue(Sunshine.directNormal(global: .nan, zenith: 30, dayOfYear: 1).isNaN)
    }

    /// An hour's count on minute samples: all sunny, none (DNI at the threshold is not above
    /// it), night never asks for data, and a missing sample with the sun up is unknown.
    func testSecondsCountMinutesAboveTheThreshold() {
        // 2005-09-21 06:00Z, near local noon at 87 E.
        let noon: Int64 = 1_127_282_400
        XCTAssertEqual(Sunshine.seconds(end: noon, window: 3600, latitude: 30, longitude: 87) { _ in 121 }, 3600)
        XCTAssertEqual(Sunshine.seconds(end: noon, window: 3600, latitude: 30, longitude: 87) { _ in 120 }, 0)
        XCTAssertTrue(Sunshine.seconds(end: noon, window: 3600, latitude: 30, longitude: 87) { _ in nil }.isNaN)
        // The first half hour sunny only.
        XCTAssertEqual(Sunshine.seconds(end: noon, window: 3600, latitude: 30, longitude: 87) { $0 < noon - 1800 ? 500 : 0 }, 1800)
        // 18:00Z is local midnight there: no sample is asked for.
        var asked = false
        XCTAssertEqual(Sunshine.seconds(end: noon + 12 * 3600, window: 3600, latitude: 30, longitude: 87) { _ in asked = true; return nil }, 0)
        XCTAssertFalse(asked)
    }
}

/// The shortcut of the sunshine count gives the answers of the plain per-minute count
/// (seeded places and times).
final class SunshineShortcutTests: XCTestCase {
    func testWindowShortcutCountsLikeEveryMinute() {
        var random = SeededGenerator(seed: 0x5_0a5e_2026_1123)
        for _ in 0..<400 {
            let latitude = Double.random(in: -89...89, using: &random), longitude = Double.random(in: -180...180, using: &random)
            let end = Int64.random(in: 0...4_102_444_800, using: &random) / 60 * 60
            let window: Int64 = [3600, 10_800][Int.random(in: 0...1, using: &random)]
            // A DNI that varies with time and crosses the threshold.
            let dni: (Int64) -> Double? = { time in 120 + 200 * sin(Double(time) / 1700) }
            var expected: Int64 = 0, unknown = false
            for k in 0..<(window / 60) {
                let time = end - window + k * 60 + 30
                guard SolarPosition.zenith(latitude: latitude, longitude: longitude, time: Double(time)) < 90 else { continue }
                guard let value = dni(time) else { unknown = true; break }
                if value > Sunshine.threshold { expected += 60 }
            }
            let got = Sunshine.seconds(end: end, window: window, latitude: latitude, longitude: longitude, directNormal: dni)
            if unknown { XCTAssertTrue(got.isNaN) } else { XCTAssertEqual(got, Float(expected), "\(latitude), \(longitude) at \(end)") }
            // The sun's moment given from elsewhere (the window's end, as a forecast passes it,
            // or days away) changes no count: it only decides where its drift cannot matter.
            for away: Int64 in [0, 5 * 86_400] {
                let moment = SolarPosition.Moment(time: Double(end + away))
                let given = Sunshine.seconds(end: end, window: window, latitude: latitude, longitude: longitude, sun: moment, directNormal: dni)
                if unknown { XCTAssertTrue(given.isNaN) } else { XCTAssertEqual(given, Float(expected), "\(latitude), \(longitude) at \(end), moment \(away) s after") }
            }
        }
    }

    /// Runs of minutes decided whole from the frames' bounds (issue 30, B3) count what the
    /// minutes count: DNI linear between hourly frames, seeded frame values spread around the
    /// threshold (some within a hundredth of it, some unknown), the bounds taken from the frames
    /// around each run.
    func testRunsDecidedByFrameBoundsCountLikeEveryMinute() {
        var random = SeededGenerator(seed: 0x30_b3_2026_1127)
        for round in 0..<300 {
            let latitude = Double.random(in: -70...70, using: &random), longitude = Double.random(in: -180...180, using: &random)
            let first = Int64.random(in: 0...4_000_000_000, using: &random) / 3600 * 3600
            let frames = (0..<30).map { first + Int64($0) * 3600 }
            let values: [Double] = frames.indices.map { _ in
                switch Int.random(in: 0..<10, using: &random) {
                case 0: return .nan
                case 1: return 120 + Double.random(in: -0.01...0.01, using: &random)
                case 2...4: return Double.random(in: 0...119, using: &random)
                default: return Double.random(in: 121...900, using: &random)
                }
            }
            func dni(_ time: Int64) -> Double? {
                guard time >= frames[0], time <= frames[frames.count - 1] else { return nil }
                let lower = Int((time - frames[0]) / 3600)
                if frames[lower] == time { return values[lower] }
                let w = Double(time - frames[lower]) / 3600
                return Double(Float(1 - w)) * values[lower] + Double(Float(w)) * values[lower + 1]
            }
            func bounds(_ a: Int64, _ b: Int64) -> (min: Double, max: Double)? {
                guard a >= frames[0], b <= frames[frames.count - 1] else { return nil }
                let from = Int((a - frames[0]) / 3600), to = min(Int((b - frames[0] + 3599) / 3600), frames.count - 1)
                let span = values[from...to]
                guard span.allSatisfy(\.isFinite), let low = span.min(), let high = span.max() else { return nil }
                return (low, high)
            }
            // Tighter bounds, as the point forecast takes them: the DNI at the span's two ends
            // and at the frames inside it, widened by the minutes' weight rounding.
            func tight(_ a: Int64, _ b: Int64) -> (min: Double, max: Double)? {
                guard let wide = bounds(a, b), let start = dni(a), let end = dni(b), start.isFinite, end.isFinite else { return nil }
                let inside = frames.indices.filter { frames[$0] > a && frames[$0] <= b }.map { values[$0] }
                let largest = max(abs(wide.min), abs(wide.max))
                return ((inside + [start, end]).min()! - largest * 0x1p-22, (inside + [start, end]).max()! + largest * 0x1p-22)
            }
            let window: Int64 = [3600, 10_800][round % 2]
            for end in stride(from: first + 7200, through: first + 27 * 3600, by: 3600) {
                let plain = Sunshine.seconds(end: end, window: window, latitude: latitude, longitude: longitude, directNormal: dni)
                let decided = Sunshine.seconds(end: end, window: window, latitude: latitude, longitude: longitude, bounds: bounds, directNormal: dni)
                let tightly = Sunshine.seconds(end: end, window: window, latitude: latitude, longitude: longitude, bounds: tight, directNormal: dni)
                if plain.isNaN { XCTAssertTrue(decided.isNaN) } else { XCTAssertEqual(decided, plain, "\(latitude), \(longitude) at \(end)") }
                if plain.isNaN { XCTAssertTrue(tightly.isNaN) } else { XCTAssertEqual(tightly, plain, "tight: \(latitude), \(longitude) at \(end)") }
            }
        }
    }
}
