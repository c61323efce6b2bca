import Catalog
import Foundation
import GridGeometry
import Meteorology

/// Where an answer came from: model, run, domain, grid spacing and the grid position used.
public struct Provenance: Codable, Sendable, Equatable {
    public var model: String
    public var modelTitle: String
    /// The run's cycle, "2026-11-22T00:00Z".
    public var cycle: String
    public var domain: String
    public var gridSpacingKilometres: Double
    /// The fractional mass-grid position (i along west_east, j along south_north, 0-based).
    public var gridI: Double
    public var gridJ: Double
    /// The domain's fast stream that answered some variables ("auxhist2"), nil when the
    /// history answered every one.
    public var stream: String?
    /// The variables the fast stream answered.
    public var streamVariables: [String]?
}

/// One place's forecast: values per variable per time, in the requested units.
public struct PointForecast: Sendable {
    /// The place as given, rounded to 4 decimals (about 10 m); with `CellSelection.nearest`,
    /// the answering grid cell's centre.
    public let latitude: Double
    public let longitude: Double
    public let provenance: Provenance
    /// The elevation the values are for, metres: the requested one when the place asked for
    /// one (`QueryPoint.elevation`), else the model terrain; nil when neither is known.
    public let elevation: Float?
    /// The model terrain height at the place (bilinear in HGT), metres; nil when not stored.
    public let modelElevation: Float?
    /// True when `elevation` is the requested one and the values were moved to it
    /// (`Downscaling`); false when they are the model terrain's.
    public let isDownscaled: Bool
    public let times: [Int64]
    public let values: [ForecastVariable: [Float]]
    public let units: OutputUnits
    public let variables: [ForecastVariable]
}

extension PointForecast {
    /// The same forecast on a longer time axis: times it does not hold are NaN (printed as
    /// null). A server answers a range only partly inside the cycle this way, as Open-Meteo
    /// answers hours beyond a model's range.
    package func padded(to allTimes: [Int64]) -> PointForecast {
        guard allTimes != times else { return self }
        var index: [Int64: Int] = [:]
        for (k, time) in times.enumerated() { index[time] = k }
        var padded: [ForecastVariable: [Float]] = [:]
        for (variable, series) in values {
            padded[variable] = allTimes.map { time in index[time].map { $0 < series.count ? series[$0] : .nan } ?? .nan }
        }
        return PointForecast(latitude: latitude, longitude: longitude, provenance: provenance, elevation: elevation,
                             modelElevation: modelElevation, isDownscaled: isDownscaled,
                             times: allTimes, values: padded, units: units, variables: variables)
    }
}

/// A place to forecast, with its own time window when a points file gives one.
public struct QueryPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Output times for this place; nil means the request's times.
    public var times: [Int64]?
    /// The line of the points file it came from, for messages.
    public var line: Int?
    /// The elevation to answer for, metres: temperatures and surface pressure are moved from
    /// the model terrain to it (`Downscaling`); nil answers for the model terrain.
    public var elevation: Double?

    public init(latitude: Double, longitude: Double, times: [Int64]? = nil, line: Int? = nil, elevation: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.times = times
        self.line = line
        self.elevation = elevation
    }
}

/// What to compute for each place.
public struct ForecastRequest: Sendable {
    /// Output times, seconds since 1970 UTC.
    public var times: [Int64]
    /// nil: the defaults the store holds (`ForecastStore.defaultVariables`).
    public var variables: [ForecastVariable]?
    public var units: OutputUnits
    /// Precipitation and snowfall are amounts over this window ending at each time.
    public var accumulationWindow: Int64
    /// Read what a domain's fast stream holds (its 15-minute output) from the stream rather
    /// than interpolating the history in time: for answers finer than the history's frames.
    public var prefersFastStreams = false
    /// Which grid values answer the place: interpolated (the default) or the nearest cell's.
    public var cellSelection: CellSelection = .land
    /// The plane `global_tilted_irradiance` is computed for (Open-Meteo's `tilt`, `azimuth`).
    package var panel = PanelOrientation.flat

    public init(times: [Int64], variables: [ForecastVariable]? = nil, units: OutputUnits = OutputUnits(),
                accumulationWindow: Int64 = 3600) {
        self.times = times
        self.variables = variables
        self.units = units
        self.accumulationWindow = accumulationWindow
    }

    /// Hourly times: `hours` of them from `start`.
    public static func hourly(from start: Int64, hours: Int) -> [Int64] {
        (0..<max(hours, 0)).map { start + Int64($0) * 3600 }
    }

    /// Times every `step` seconds over `hours` hours from `start`: `hours * 3600 / step` of them.
    public static func series(from start: Int64, hours: Int, step: Int64) -> [Int64] {
        guard step > 0 else { return [] }
        return (0..<(Int64(max(hours, 0)) * 3600 / step)).map { start + $0 * step }
    }
}

/// Open-Meteo's `cell_selection`: which grid values answer a place.
///
/// `land` and `sea` interpolate bilinearly between the four cells around the place, as every
/// answer does by default: the store keeps no land-sea mask to pick a cell of one kind by.
/// `nearest` answers the values of the grid cell nearest the place (in grid space), with no
/// interpolation between cells, and reports that cell's centre and terrain height.
public enum CellSelection: String, CaseIterable, Sendable {
    case land
    case sea
    case nearest

    /// The grid position whose values answer a place at `position`.
    package func answering(_ position: GridPosition) -> GridPosition {
        guard self == .nearest else { return position }
        return GridPosition(i: position.i.rounded(), j: position.j.rounded())
    }
}

/// Rounds a coordinate to 4 decimals, as answers report it.
func roundCoordinate(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

extension QueryPoint {
    /// A latitude a query accepts: -90..90. The one place the rule is written (the command
    /// line, the points file and the forecaster all ask here).
    package static func isValid(latitude: Double) -> Bool { latitude.isFinite && abs(latitude) <= 90 }
    /// A longitude a query accepts: -180..360 (0..360 is folded onto -180..180).
    package static func isValid(longitude: Double) -> Bool { longitude.isFinite && longitude >= -180 && longitude <= 360 }

    /// A requested elevation as text: "nan" (Open-Meteo's "no downscaling": nil), or metres
    /// within `Downscaling.validElevations`. The one place the rule is written (command line,
    /// points file and API); the error says what is wrong.
    package static func parseElevation(_ text: String) -> Result<Double?, QueryError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "nan" { return .success(nil) }
        let range = Downscaling.validElevations
        guard let value = Double(trimmed), value.isFinite else {
            return .failure(.badRequest("elevation \"\(text)\": expected metres (\(Int(range.lowerBound))..\(Int(range.upperBound))) or nan for the model terrain"))
        }
        guard range.contains(value) else {
            return .failure(.badRequest("elevation \(trimmed): expected \(Int(range.lowerBound))..\(Int(range.upperBound)) m (or nan for the model terrain)"))
        }
        return .success(value)
    }
}
