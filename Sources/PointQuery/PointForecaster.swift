import Catalog
import Dispatch
import Foundation
import GridGeometry
import Interpolation
import Meteorology
import TileStore

/// Answers point forecasts from an opened store: picks the domain, reads the four cells
/// around the place, interpolates bilinearly in grid space (SIMD over the time axis), then
/// linearly in time.
public struct PointForecaster: Sendable {
    public let store: ForecastStore

    public init(store: ForecastStore) { self.store = store }

    /// The forecast for one place.
    ///
    /// - Throws: `QueryError` `.outsideDomains` / `.outsideTimes` (exit 4), `.badRequest`
    ///   (bad coordinates), `.store` (damage met while reading, exit 5).
    public func forecast(_ point: QueryPoint, request: ForecastRequest) throws(QueryError) -> PointForecast {
        let latitude = roundCoordinate(point.latitude)
        var longitude = roundCoordinate(point.longitude)
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, longitude >= -180, longitude <= 360 else {
            throw .badRequest("latitude \(point.latitude), longitude \(point.longitude): expected -90..90 and -180..360")
        }
        if longitude > 180 { longitude -= 360 }
        let times = point.times ?? request.times
        guard let first = times.min(), let last = times.max() else { throw .badRequest("no times requested") }
        // Accumulations need the window before the first time as well, but only when the run
        // has frames there; the first frame's own interval is stored.
        let (domain, place) = try store.choose(latitude: latitude, longitude: longitude, first: first, last: last)
        let position = request.cellSelection.answering(place)
        guard let stencil = BilinearStencil(i: position.i, j: position.j, westEast: domain.metadata.westEast,
                                            southNorth: domain.metadata.southNorth) else {
            throw .outsideDomains(latitude: latitude, longitude: longitude, extents: store.domains.map(\.extent))
        }
        let variables = request.variables ?? store.defaultVariables
        // A variable the domain does not store is an error, never a column of nulls.
        if let absent = variables.first(where: { !domain.holds($0) }) { throw store.notHeld(absent) }
        // A finer answer reads what the domain's fast stream holds from it, when the stream
        // spans the times; the rest from the history, interpolated in time.
        var fast: (stream: StoredDomain, variables: [ForecastVariable])?
        if request.prefersFastStreams, let stream = store.fastStreams[domain.name], stream.spans(first: first, last: last) {
            let held = variables.filter { stream.holds($0) && $0 != .elevation }
            if !held.isEmpty { fast = (stream, held) }
        }
        let fromHistory = fast.map { chosen in variables.filter { !chosen.variables.contains($0) } } ?? variables
        var (values, elevation) = try Self.compute(fromHistory, in: domain, stencil: stencil, point: point, request: request,
                                                  times: times, latitude: latitude, longitude: longitude, modelElevation: nil)
        if let fast {
            let (streamValues, _) = try Self.compute(fast.variables, in: fast.stream, stencil: stencil, point: point, request: request,
                                                     times: times, latitude: latitude, longitude: longitude,
                                                     modelElevation: .some(elevation))
            values.merge(streamValues) { _, fromStream in fromStream }
        }
        let units = request.units
        let provenance = Provenance(
            model: domain.metadata.model, modelTitle: domain.metadata.modelTitle,
            cycle: domain.cycleText, domain: domain.name,
            gridSpacingKilometres: domain.metadata.projection.dx / 1000,
            gridI: (position.i * 1000).rounded() / 1000, gridJ: (position.j * 1000).rounded() / 1000,
            stream: fast?.stream.metadata.stream, streamVariables: fast?.variables.map(\.rawValue))
        let reported = Self.reportedPlace(latitude: latitude, longitude: longitude, cellSelection: request.cellSelection,
                                          grid: domain.grid, position: position)
        return PointForecast(latitude: reported.latitude, longitude: point.longitude > 180 ? reported.longitude + 360 : reported.longitude,
                             provenance: provenance, elevation: point.elevation.map { Float($0) } ?? elevation,
                             modelElevation: elevation, isDownscaled: point.elevation != nil, times: times, values: values,
                             units: units, variables: variables)
    }

    /// The coordinates an answer reports: the place as asked, or with `nearest` the centre of
    /// the cell that answered (as Open-Meteo echoes its grid cell's), rounded alike. The cell's
    /// centre is worked out only then: it costs an inverse projection per forecast.
    private static func reportedPlace(latitude: Double, longitude: Double, cellSelection: CellSelection,
                                      grid: ProjectedGrid, position: GridPosition) -> (latitude: Double, longitude: Double) {
        guard cellSelection == .nearest else { return (latitude, longitude) }
        let cell = grid.point(at: position)
        guard cell.latitude.isFinite, cell.longitude.isFinite else { return (latitude, longitude) }
        return (roundCoordinate(cell.latitude), roundCoordinate(cell.longitude))
    }

    /// Some variables of one place's forecast, read from one domain file (a domain's history
    /// or its fast stream), and the model terrain at the place.
    ///
    /// - Parameter modelElevation: the terrain already read from the history (`.some`), or nil
    ///   to read it from this file.
    private static func compute(_ variables: [ForecastVariable], in domain: StoredDomain, stencil: BilinearStencil, point: QueryPoint,
                                request: ForecastRequest, times: [Int64], latitude: Double, longitude: Double,
                                modelElevation known: Float??) throws(QueryError) -> ([ForecastVariable: [Float]], Float?) {
        let plan = TimePlan.of(times: times, window: request.accumulationWindow, domain: domain)
        // One buffer for the whole forecast: four corner series, the interpolated series and
        // room for a cell's filled totals, `framesNeeded` values each; and the codec's scratch.
        let stride = max(plan.framesNeeded, 1)
        var floats = [Float](repeating: 0, count: SeriesReader.slots * stride)
        var quantized = [Int32](repeating: 0, count: stride)
        return try floats.withUnsafeMutableBufferPointer { (floats) throws(QueryError) in
            try quantized.withUnsafeMutableBufferPointer { (quantized) throws(QueryError) in
                let reader = SeriesReader(domain: domain, stencil: stencil, count: plan.framesNeeded,
                                          floats: floats, scratch: quantized)
                reader.prefetch(variables)
                let elevation: Float?
                if let known { elevation = known } else {
                    elevation = domain.reader.steps(.elevation) == 0 ? nil : try reader.spatial(.elevation) { $0.first }
                }
                // A requested elevation moves the values from the model terrain to it; without
                // the terrain height there is nothing to move from (never a silent no-op).
                var downscaling: Downscale?
                if let target = point.elevation {
                    guard let model = elevation, model.isFinite else {
                        throw .badRequest("elevation \(target): the \(domain.name) domain stores no terrain height (HGT) to move the values from; leave the elevation out")
                    }
                    downscaling = Downscale(model: Double(model), target: target)
                }
                let context = Context(reader: reader, plan: plan, units: request.units, times: times, latitude: latitude,
                                      longitude: longitude, window: request.accumulationWindow, downscaling: downscaling,
                                      modelElevation: elevation, panel: request.panel)
                return (try Self.values(variables, context), elevation)
            }
        }
    }

    /// What every variable of one forecast is computed with. A class: each variable's formula
    /// takes it, and copying the struct it was (the reader's domain, the plan, the times), its
    /// retains and releases, was 4 % of a forecast of the default variables.
    final class Context {
        let reader: SeriesReader
        let plan: TimePlan
        let units: OutputUnits
        let times: [Int64]
        let latitude: Double
        let longitude: Double
        /// Amounts and sunshine are over this many seconds ending at each time.
        let window: Int64
        let downscaling: Downscale?
        /// The model terrain at the place (read once per forecast), nil without HGT.
        let modelElevation: Float?
        /// The plane of `global_tilted_irradiance` (Open-Meteo's tilt and azimuth).
        let panel: PanelOrientation
        /// Each source's series at the times, read once per forecast (`SeriesMemo`).
        let memo = SeriesMemo()
        /// The sine and cosine of the place's latitude, which every zenith of the forecast
        /// takes; made when the first is asked for.
        lazy var latitudeParts = SolarPosition.Latitude(latitude)

        init(reader: SeriesReader, plan: TimePlan, units: OutputUnits, times: [Int64], latitude: Double, longitude: Double,
             window: Int64, downscaling: Downscale?, modelElevation: Float?, panel: PanelOrientation) {
            self.reader = reader
            self.plan = plan
            self.units = units
            self.times = times
            self.latitude = latitude
            self.longitude = longitude
            self.window = window
            self.downscaling = downscaling
            self.modelElevation = modelElevation
            self.panel = panel
        }

        /// The variable's series at the times, in °C / the store's units before `units`.
        func atTimes(_ variable: ForecastVariable) throws(QueryError) -> [Float] {
            if let known = memo.atTimes.find(variable) { return known }
            let series = try reader.spatial(variable) { plan.atTimes($0) }
            memo.atTimes.keep(series, of: variable)
            return series
        }

        /// The variable's amounts over each time's window, in the store's units before `units`.
        func amounts(_ variable: ForecastVariable) throws(QueryError) -> [Float] {
            if let known = memo.amounts.find(variable) { return known }
            let series = try reader.amounts(variable, plan: plan) { $0 }
            memo.amounts.keep(series, of: variable)
            return series
        }

        /// The sun at each time (hour angle, declination, zenith), computed once per forecast
        /// for is_day, ET0, terrestrial_radiation_instant and the tilted irradiance alike.
        func sun() -> [(hourAngle: Double, declination: Double, zenith: Double)] {
            if let known = memo.sun { return known }
            let moments = self.moments()
            let place = latitudeParts
            let computed = times.indices.map {
                SolarPosition.sky(latitude: place, longitude: longitude, time: Double(times[$0]), moment: moments[$0])
            }
            memo.sun = computed
            return computed
        }

        /// The sun's declination and equation of time at each time (what `sun` and the sunshine
        /// count start from), shared by every place asking for these times (`SolarTimes`).
        func moments() -> [SolarPosition.Moment] { solar().moments }

        /// The sun's facts at the times that every place shares (`SolarTimes`).
        func solar() -> SolarTimes {
            if let known = memo.solar { return known }
            let found = SolarTimes.of(times: times, window: window)
            memo.solar = found
            return found
        }

        /// The sun's zenith (degrees) at each time.
        func zeniths() -> [Double] { sun().map(\.zenith) }
    }

    /// The series one forecast has read, in store units: the weather code reads cloud cover,
    /// precipitation and snowfall, the humidity and apparent-temperature formulas the 2 m
    /// temperature, and wind speed and direction the same components, each of which a request
    /// of every default variable also asks for itself (a tenth of a 100-place request went
    /// into reading them again). Unit conversion and a requested elevation's shift are applied
    /// to each value after the interpolation in time either way, so an answer from the memo is
    /// the same bytes as one read afresh.
    ///
    /// A forecast keeps a few dozen series at most: each kind in two short arrays searched in
    /// order. A dictionary's hashing, growth and teardown were 8 % of a forecast of every
    /// variable; a table by `ForecastVariable.ordinal` cost more still to tear down (every
    /// empty entry released one by one).
    final class SeriesMemo {
        var atTimes = Kept()
        var amounts = Kept()
        var sun: [(hourAngle: Double, declination: Double, zenith: Double)]?
        var solar: SolarTimes?

        struct Kept {
            private var variables: [ForecastVariable] = []
            private var series: [[Float]] = []

            func find(_ variable: ForecastVariable) -> [Float]? {
                guard let index = variables.firstIndex(of: variable) else { return nil }
                return series[index]
            }

            mutating func keep(_ values: [Float], of variable: ForecastVariable) {
                variables.append(variable)
                series.append(values)
            }
        }
    }

    /// A requested elevation against the model terrain (`Downscaling`, Open-Meteo's rule).
    struct Downscale {
        let model: Double
        let target: Double

        /// Kelvin added to the temperatures Open-Meteo moves (2 m air, dew point, apparent
        /// temperature, soil): the standard lapse rate times the height difference.
        var shift: Float { Float(Downscaling.temperatureShift(model: model, target: target)) }

        /// Whether a variable is moved by `shift`. Relative humidity is not moved (Open-Meteo
        /// keeps it as the model has it), nor anything but temperatures and surface pressure.
        static func isShifted(_ variable: ForecastVariable) -> Bool { variable.spec.movedByElevation }

        /// Surface pressures (hPa) moved to the target for the 2 m temperatures (°C) at the terrain.
        func surfacePressure(_ pressure: [Float], temperature: [Float]) -> [Float] {
            zip(pressure, temperature).map { p, t in
                Float(Double(p) * Downscaling.surfacePressureFactor(temperature: Double(t), model: model, target: target))
            }
        }
    }

    /// Each variable's values at the requested times, in the requested units.
    private static func values(_ variables: [ForecastVariable], _ c: Context) throws(QueryError) -> [ForecastVariable: [Float]] {
        let (units, times, latitude, longitude) = (c.units, c.times, c.latitude, c.longitude)
        var values: [ForecastVariable: [Float]] = [:]
        values.reserveCapacity(variables.count)
        let zeniths = c.zeniths
        for variable in variables {
            let quantity = variable.quantity
            if variable.spreadBase != nil {
                // One cycle has no spread (a sample of one); the members' is `LaggedMembers`.
                values[variable] = [Float](repeating: .nan, count: times.count)
                continue
            }
            if let (uVariable, vVariable, part) = variable.wind {
                // The components are read once for speed, direction and components alike.
                let wind = (u: try c.atTimes(uVariable), v: try c.atTimes(vVariable))
                values[variable] = zip(wind.u, wind.v).map { u, v in
                    switch part {
                    case .speed: return units.convert(windSpeed(u: u, v: v), quantity)
                    case .direction: return windDirection(u: u, v: v)
                    case .u: return units.convert(u, quantity)
                    case .v: return units.convert(v, quantity)
                    }
                }
                continue
            }
            switch variable {
            case .precipitation, .snowfall, .rain, .showers, .runoff, .hail, .potentialEvapotranspiration:
                values[variable] = try c.amounts(variable.primarySource).map { units.convert($0, quantity) }
            case .snowfallWaterEquivalent:
                values[variable] = try c.amounts(.snowfall).map {
                    units.convert(snowWaterEquivalentMillimetres(snowfallCentimetres: $0), quantity)
                }
            case .isDay:
                values[variable] = zeniths().map(SolarPosition.isDay(zenith:))
            case .terrestrialRadiationInstant:
                // The zeniths is_day and ET0 use: the sun's position once per time.
                values[variable] = zip(zeniths(), c.solar().distances).map { Float(TerrestrialRadiation.instant(zenith: $0, distance: $1)) }
            case .terrestrialRadiation:
                if c.window > 0 {
                    let middles = c.solar().middles, place = c.latitudeParts
                    values[variable] = times.indices.map {
                        Float(TerrestrialRadiation.backwardsMean(latitude: place, longitude: longitude, end: times[$0], window: c.window,
                                                                 sun: middles[$0]))
                    }
                } else {
                    values[variable] = times.map {
                        Float(TerrestrialRadiation.backwardsMean(latitude: latitude, longitude: longitude, end: $0, window: c.window))
                    }
                }
            case .weatherCode:
                values[variable] = try Self.weatherCodes(c)
            case .precipitationProbability, .snowfallProbability, .rainProbability, .freezingRainProbability:
                // One cycle's chance: its neighbourhood fraction at the place, of the interval
                // holding each time (the members' mean is `LaggedMembers`).
                values[variable] = try c.reader.spatial(variable.primarySource) { c.plan.intervalValues($0) }
            case .et0FaoEvapotranspiration:
                values[variable] = try Self.referenceEvapotranspiration(c, zeniths: zeniths()).map { units.convert($0, quantity) }
            case .sunshineDuration:
                values[variable] = try Self.sunshineDuration(c)
            case .globalTiltedIrradiance, .globalTiltedIrradianceInstant:
                // One series for both names: WRF's radiation is instantaneous (docs/VARIABLES.md).
                let twin: ForecastVariable = variable == .globalTiltedIrradiance ? .globalTiltedIrradianceInstant : .globalTiltedIrradiance
                if let known = values[twin] { values[variable] = known } else { values[variable] = try Self.tiltedIrradiance(c) }
            case .surfacePressure where c.downscaling != nil:
                if let downscaling = c.downscaling {
                    values[variable] = downscaling.surfacePressure(try c.atTimes(.surfacePressure), temperature: try c.atTimes(.temperature2m))
                }
            default:
                if let formula = variable.spec.pointwise {
                    values[variable] = try Self.pointwise(variable, formula, c)
                    continue
                }
                let shift = c.downscaling.map { Downscale.isShifted(variable) ? $0.shift : 0 } ?? 0
                values[variable] = try c.atTimes(variable.primarySource).map { units.convert($0 + shift, quantity) }
            }
        }
        return values
    }

    /// A variable the registry computes value by value from its sources (`VariableSpec.pointwise`),
    /// each source at the times in its store unit, moved to a requested elevation as it would
    /// be when asked for alone.
    static func pointwise(_ variable: ForecastVariable, _ formula: @Sendable ([Float]) -> Float, _ c: Context) throws(QueryError) -> [Float] {
        var inputs: [[Float]] = [], shifts: [Float] = []
        for source in variable.sources {
            shifts.append(c.downscaling.map { Downscale.isShifted(source) ? $0.shift : 0 } ?? 0)
            inputs.append(try c.atTimes(source))
        }
        let quantity = variable.quantity
        // One row of inputs, refilled for each time: with an array made per time this function
        // cost twice the instructions (B3 with every variable, callgrind).
        var row = [Float](repeating: .nan, count: inputs.count)
        return c.times.indices.map { k in
            for j in inputs.indices { row[j] = k < inputs[j].count ? inputs[j][k] + shifts[j] : .nan }
            return c.units.convert(formula(row), quantity)
        }
    }

    /// The weather code of each row from the row's own interpolated quantities at the place
    /// (`WeatherCode.calculate`, Open-Meteo's rule): the amounts over the row's window and the
    /// instantaneous values at its time, each read only when the domain stores it. A file of
    /// an older store that kept codes per cell but not their sources answers its stored codes
    /// (the nearest cell's, of the interval holding the time).
    static func weatherCodes(_ c: Context) throws(QueryError) -> [Float] {
        let domain = c.reader.domain
        guard ForecastVariable.weatherCode.sources.allSatisfy({ domain.reader.steps($0) > 0 }) else {
            return try c.reader.nearest(.weatherCode) { c.plan.intervalValues($0) }
        }
        func held(_ variable: ForecastVariable) -> Bool { domain.reader.steps(variable) > 0 }
        func amounts(_ variable: ForecastVariable) throws(QueryError) -> [Float]? {
            guard held(variable) else { return nil }
            return try c.amounts(variable)
        }
        func instants(_ variable: ForecastVariable) throws(QueryError) -> [Float]? {
            guard held(variable) else { return nil }
            return try c.atTimes(variable)
        }
        let cloudCover = try c.atTimes(.cloudCover)
        let precipitation = try c.amounts(.precipitation)
        let snowfall = try amounts(.snowfall), showers = try amounts(.showers)
        let visibility = try instants(.visibility), cape = try instants(.cape)
        let gusts = try instants(.windGusts10m), height = try instants(.boundaryLayerHeight)
        // The freezing-rain category: the grid-scale rain (liquid) and the 2 m temperature at the
        // row's time, moved to a requested elevation as the answered temperature is.
        let rain = try amounts(.rain)
        let shift = c.downscaling?.shift ?? 0
        let temperature = held(.temperature2m) ? try c.atTimes(.temperature2m).map { $0 + shift } : nil
        let hours = Float(c.window) / 3600, latitude = Float(c.latitude)
        func at(_ series: [Float]?, _ k: Int) -> Float? { series.map { k < $0.count ? $0[k] : .nan } }
        return c.times.indices.map { k in
            var inputs = WeatherCodeInputs(
                cloudCover: at(cloudCover, k) ?? .nan, precipitation: at(precipitation, k) ?? .nan,
                snowfall: at(snowfall, k) ?? 0, showers: at(showers, k), visibility: at(visibility, k), cape: at(cape, k),
                gusts: at(gusts, k), boundaryLayerHeight: at(height, k), hours: hours, latitude: latitude)
            inputs.freezingRain = WeatherCodeInputs.freezes(liquid: at(rain, k) ?? .nan, temperature: at(temperature, k) ?? .nan)
            return WeatherCode.calculate(inputs).map { Float($0.rawValue) } ?? .nan
        }
    }

    /// FAO-56 hourly ET0 (mm) at each time from the interpolated 2 m temperature and dew
    /// point, 10 m wind, shortwave and surface pressure (`Evapotranspiration.hourly`); the
    /// clear-sky radiation uses the model terrain height (0 m when the store has none). With a
    /// requested elevation, its inputs are the moved ones and the elevation the requested one
    /// (Open-Meteo computes ET0 from its moved temperature at the target elevation).
    static func referenceEvapotranspiration(_ c: Context, zeniths: [Double]) throws(QueryError) -> [Float] {
        let times = c.times
        let shift = c.downscaling?.shift ?? 0
        let t0 = try c.atTimes(.temperature2m)
        let t = t0.map { $0 + shift }, td = try c.atTimes(.dewPoint2m).map { $0 + shift }
        let u = try c.atTimes(.windU10m), v = try c.atTimes(.windV10m)
        let sw = try c.atTimes(.shortwaveRadiation), p0 = try c.atTimes(.surfacePressure)
        let p = c.downscaling.map { $0.surfacePressure(p0, temperature: t0) } ?? p0
        let z = c.downscaling?.target ?? Double(c.modelElevation ?? 0)
        var ratio = 0.7
        let daysOfYear = c.solar().daysOfYear
        return times.indices.map { k in
            guard k < t.count, k < td.count, k < u.count, k < v.count, k < sw.count, k < p.count, k < zeniths.count else { return .nan }
            let cosZenith = cos(zeniths[k] * Double.pi / 180)
            let dayOfYear = daysOfYear[k]
            return Float(Evapotranspiration.hourly(temperature: Double(t[k]), dewPoint: Double(td[k]), wind10m: Double(windSpeed(u: u[k], v: v[k])),
                                                   shortwave: Double(sw[k]), pressure: Double(p[k]), elevation: z, cosZenith: cosZenith,
                                                   dayOfYear: dayOfYear, ratio: &ratio))
        }
    }

    /// The global tilted irradiance (W/m²) on the request's plane at each time
    /// (`TiltedIrradiance`): from the direct and diffuse radiation when the domain stores both,
    /// else from the global radiation split by Erbs; each interpolated to the place and time,
    /// with the sun's position at that time. Unknown (NaN) where an input is.
    static func tiltedIrradiance(_ c: Context) throws(QueryError) -> [Float] {
        let domain = c.reader.domain
        let panel = c.panel
        let hasSplit = domain.reader.steps(.directRadiation) > 0 && domain.reader.steps(.diffuseRadiation) > 0
        let first = try c.atTimes(hasSplit ? .directRadiation : .shortwaveRadiation)
        let diffuse = hasSplit ? try c.atTimes(.diffuseRadiation) : []
        // The forecast's sun (shared with is_day and ET0), plus its azimuth.
        let suns = c.sun()
        let daysOfYear = c.solar().daysOfYear
        return c.times.indices.map { k in
            guard k < first.count, !hasSplit || k < diffuse.count, k < suns.count else { return .nan }
            let sun = (zenith: suns[k].zenith,
                       azimuth: SolarPosition.azimuth(latitude: c.latitude, hourAngle: suns[k].hourAngle, declination: suns[k].declination))
            let value = hasSplit
                ? TiltedIrradiance.fromDirect(direct: Double(first[k]), diffuse: Double(diffuse[k]), zenith: sun.zenith,
                                              solarAzimuth: sun.azimuth, panel: panel)
                : TiltedIrradiance.fromGlobal(global: Double(first[k]), zenith: sun.zenith, solarAzimuth: sun.azimuth,
                                              dayOfYear: daysOfYear[k], panel: panel)
            return Float(value)
        }
    }

    /// Seconds of sunshine in the window ending at each time (`Sunshine`): each frame's direct
    /// normal irradiance from SWDDIR when stored, else from the global radiation by Erbs, at
    /// the place (bilinear) and the frame's sun; then minute samples interpolated in time.
    static func sunshineDuration(_ c: Context) throws(QueryError) -> [Float] {
        let domain = c.reader.domain
        let hasDirect = domain.reader.steps(.directRadiation) > 0
        let series = try c.reader.spatial(hasDirect ? .directRadiation : .shortwaveRadiation) { Array($0) }
        let moments = c.moments(), place = c.latitudeParts
        var frames = FrameNormals(c, series: series, hasDirect: hasDirect)
        var durations = [Float]()
        durations.reserveCapacity(c.times.count)
        for (index, end) in c.times.enumerated() {
            let seconds = Sunshine.seconds(end: end, window: c.window, latitude: place, longitude: c.longitude,
                                           sun: moments[index], bounds: { frames.bounds($0, $1) },
                                           directNormal: { frames.directNormal(at: $0) })
            durations.append(seconds)
        }
        return durations
    }

    /// The direct normal irradiance of one place's frames, each computed when first needed (a
    /// forecast's windows touch a few of the run's frames), and between them. A plain value
    /// that the sunshine count's non-escaping closures capture: no run-time exclusivity checks,
    /// which were a tenth of the count's instructions when its state was captured by an
    /// escaping closure.
    struct FrameNormals {
        let times: TimeInterpolation
        let series: [Float]
        let hasDirect: Bool
        let latitude: Double
        let longitude: Double
        /// The forecast's times and the sun's zeniths at them (`Context.sun`, which is_day, ET0
        /// and the tilted irradiance share): a frame at one of those times takes its zenith
        /// from there.
        let forecastTimes: [Int64]
        let zeniths: [Double]
        /// The day of the year at each forecast time (`SolarTimes`).
        let daysOfYear: [Int]
        var normal: [Double]
        var known: [Bool]
        /// The minutes come in order: the last bracket is the next one's guess.
        var guess = 0

        init(_ c: Context, series: [Float], hasDirect: Bool) {
            times = c.reader.domain.times
            self.series = series
            self.hasDirect = hasDirect
            latitude = c.latitude
            longitude = c.longitude
            forecastTimes = c.times
            zeniths = c.zeniths()
            daysOfYear = c.solar().daysOfYear
            normal = [Double](repeating: .nan, count: series.count)
            known = [Bool](repeating: false, count: series.count)
        }

        mutating func at(_ f: Int) -> Double {
            if known[f] { return normal[f] }
            let value: Double
            if f >= times.frameTimes.count {
                value = .nan
            } else {
                let time = times.frameTimes[f]
                let zenith: Double, dayOfYear: Int
                if let index = Self.index(of: time, in: forecastTimes) {
                    zenith = zeniths[index]
                    dayOfYear = daysOfYear[index]
                } else {
                    zenith = SolarPosition.zenith(latitude: latitude, longitude: longitude, time: Double(time))
                    dayOfYear = ModelTime.dayOfYear(time)
                }
                value = hasDirect ? Sunshine.directNormal(direct: Double(series[f]), zenith: zenith)
                    : Sunshine.directNormal(global: Double(series[f]), zenith: zenith, dayOfYear: dayOfYear)
            }
            normal[f] = value
            known[f] = true
            return value
        }

        /// The DNI at a sample time, linear between the frames around it; nil outside the run.
        mutating func directNormal(at time: Int64) -> Double? {
            guard let bracket = times.bracket(at: time, near: guess), bracket.lower < normal.count else { return nil }
            guess = bracket.lower
            return value(bracket)
        }

        /// The DNI at a bracket, as the minutes take it (the bracket's Float weights).
        private mutating func value(_ bracket: TimeBracket) -> Double? {
            guard bracket.lower < normal.count else { return nil }
            if bracket.upperWeight == 0 { return at(bracket.lower) }
            guard bracket.upper < normal.count else { return nil }
            return Double(bracket.lowerWeight) * at(bracket.lower) + Double(bracket.upperWeight) * at(bracket.upper)
        }

        /// The least and greatest DNI of the minutes from `first` to `last` (sample times).
        /// DNI is linear in time between frames, so over the span it lies between its values
        /// at the span's two ends and at the frames inside it. (The frames around the span, as
        /// this took before, bound it too but never decide a run within one frame interval
        /// that crosses the threshold: such a window was halved down to all its minutes.) Each
        /// minute's value strays from the line by its Float weights' rounding, under 2⁻²³ of
        /// the frames' DNI, so the bounds are widened by twice that. Nil when a value is unknown.
        mutating func bounds(_ first: Int64, _ last: Int64) -> (min: Double, max: Double)? {
            guard let from = times.bracket(at: first, near: guess), let to = times.bracket(at: last, near: from.lower),
                  to.upper < normal.count, let start = value(from), let end = value(to), start.isFinite, end.isFinite else { return nil }
            var low = min(start, end), high = max(start, end), largest = 0.0
            for f in from.lower...to.upper {
                let value = at(f)
                guard value.isFinite else { return nil }
                largest = max(largest, abs(value))
                // Frames after the span's first minute and up to its last lie inside it.
                if f > from.lower, f <= to.lower {
                    low = min(low, value)
                    high = max(high, value)
                }
            }
            let slack = largest * 0x1p-22
            return (low - slack, high + slack)
        }

        /// The index of `time` in the sorted `times`, nil when it is not there.
        static func index(of time: Int64, in times: [Int64]) -> Int? {
            var lo = 0, hi = times.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if times[mid] < time { lo = mid + 1 } else { hi = mid }
            }
            return lo < times.count && times[lo] == time ? lo : nil
        }
    }

    /// Forecasts for many places, spread over all cores; results in the order of `points`.
    ///
    /// Each worker writes its results straight into their rows of the returned array: no
    /// per-chunk arrays joined afterwards, no lock. That joining ran on one thread after the
    /// parallel part (a copy, with a retain and release of every result's references), and
    /// the serial part of a batch is what limits its speed-up on two cores.
    public func forecast(_ points: [QueryPoint], request: ForecastRequest) -> [Result<PointForecast, QueryError>] {
        let count = points.count
        guard count > 0 else { return [] }
        let chunks = min(count, max(1, ProcessInfo.processInfo.activeProcessorCount * 4))
        return [Result<PointForecast, QueryError>](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let rows = Rows(base: base)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                for index in (chunk * count / chunks)..<((chunk + 1) * count / chunks) {
                    let result: Result<PointForecast, QueryError>
                    do throws(QueryError) { result = .success(try forecast(points[index], request: request)) } catch { result = .failure(error) }
                    (rows.base + index).initialize(to: result)
                }
            }
            // concurrentPerform returns after every chunk ran: every row is initialized.
            initialized = count
        }
    }

    /// The batch's output rows, shared by the workers: each row is initialized by exactly one
    /// of them (its chunk's), and the array is handed back only after all have returned.
    private struct Rows: @unchecked Sendable {
        let base: UnsafeMutablePointer<Result<PointForecast, QueryError>>
    }
}

/// Reads and interpolates one place's series from one domain, in buffers the forecast lends
/// it: each variable costs the decodes of its distinct corner cells (of only the frames the
/// times need) and one SIMD pass, and allocates nothing.
struct SeriesReader {
    /// Series slots in the buffer: four corners, the interpolated series, filled totals.
    static let slots = 6
    let domain: StoredDomain
    let stencil: BilinearStencil
    /// Frames decoded per series: up to the last one the requested times use.
    let count: Int
    private let floats: UnsafeMutableBufferPointer<Float>
    private let scratch: UnsafeMutableBufferPointer<Int32>
    private let stride: Int
    /// The corners located once, (i0, j0), (i1, j0), (i0, j1), (i1, j1): the same tile and
    /// cell for every variable.
    private let places: (CellPlace?, CellPlace?, CellPlace?, CellPlace?)

    /// - Parameters:
    ///   - floats: `slots` x max(count, 1) values.
    ///   - scratch: max(count, 1) values.
    init(domain: StoredDomain, stencil: BilinearStencil, count: Int, floats: UnsafeMutableBufferPointer<Float>,
         scratch: UnsafeMutableBufferPointer<Int32>) {
        self.domain = domain
        self.stencil = stencil
        self.count = count
        self.floats = floats
        self.scratch = scratch
        stride = max(count, 1)
        let reader = domain.reader
        places = (reader.place(i: stencil.i0, j: stencil.j0), reader.place(i: stencil.i1, j: stencil.j0),
                  reader.place(i: stencil.i0, j: stencil.j1), reader.place(i: stencil.i1, j: stencil.j1))
    }

    /// Corner `k` (0...3, in `places`' order) located.
    @inline(__always)
    private func place(_ k: Int) -> CellPlace? {
        switch k {
        case 0: return places.0
        case 1: return places.1
        case 2: return places.2
        default: return places.3
        }
    }

    /// Slot `k` of the buffer, `steps` values.
    @inline(__always)
    private func slot(_ k: Int, _ steps: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(rebasing: floats[(k * stride)..<(k * stride + steps)])
    }

    /// The variable's series at the place, interpolated bilinearly (static fields: one
    /// value), handed to `body` (valid only inside it).
    func spatial<Result>(_ variable: ForecastVariable, _ body: (UnsafeBufferPointer<Float>) -> Result) throws(QueryError) -> Result {
        let steps = min(domain.reader.steps(variable), count)
        let s = stencil
        // Corners (i0, j0), (i1, j0), (i0, j1), (i1, j1); an aliased corner (on a node or an
        // edge) is its cell's first read, not a second decode.
        let (c10, c01, c11) = aliases
        try readCorners(variable, steps: steps)
        let out = slot(4, steps)
        if let target = out.baseAddress, let a = slot(0, steps).baseAddress, let b = slot(c10, steps).baseAddress,
           let c = slot(c01, steps).baseAddress, let d = slot(c11, steps).baseAddress {
            interpolateSeries(a, b, c, d, weights: s.weights, count: steps, into: target)
        }
        return body(UnsafeBufferPointer(out))
    }

    /// The slot each of corners (i1, j0), (i0, j1) and (i1, j1) is read into: its own, or on
    /// a node or an edge the corner it coincides with (then it is not read again).
    private var aliases: (Int, Int, Int) {
        let s = stencil
        let c10 = s.i1 != s.i0 ? 1 : 0, c01 = s.j1 != s.j0 ? 2 : 0
        let c11 = s.j1 == s.j0 ? c10 : s.i1 == s.i0 ? c01 : 3
        return (c10, c01, c11)
    }

    /// The corners read, in order: 0 alone on a node, 0 and 1 or 0 and 2 on an edge, else all
    /// four (the first `count` of `corners`).
    private var distinctCorners: (corners: SIMD4<Int>, count: Int) {
        switch aliases {
        case (1, _, 3): return (SIMD4(0, 1, 2, 3), 4)
        case (1, _, _): return (SIMD4(0, 1, 0, 0), 2)
        case (_, 2, _): return (SIMD4(0, 2, 0, 0), 2)
        default: return (SIMD4(0, 0, 0, 0), 1)
        }
    }

    /// The amount over each requested time's window at the place, from the running totals of
    /// the distinct cells of the stencil that carry weight (each with its summed weight),
    /// which must be differenced per cell before they are mixed (`TimePlan.addAmounts`), in
    /// the units `convert` gives.
    func amounts(_ variable: ForecastVariable, plan: TimePlan, convert: (Float) -> Float) throws(QueryError) -> [Float] {
        let s = stencil, w = s.weights
        let options = (SIMD4<Float>(w.w00, w.w10, w.w01, w.w11), SIMD4<Int>(s.i0, s.i1, s.i0, s.i1), SIMD4<Int>(s.j0, s.j0, s.j1, s.j1))
        var weights = SIMD4<Float>(), cellI = SIMD4<Int>(), cellJ = SIMD4<Int>(), corner = SIMD4<Int>(), cells = 0
        for k in 0..<4 where options.0[k] > 0 {
            if let found = (0..<cells).first(where: { cellI[$0] == options.1[k] && cellJ[$0] == options.2[k] }) {
                weights[found] += options.0[k]
            } else {
                (weights[cells], cellI[cells], cellJ[cells], corner[cells]) = (options.0[k], options.1[k], options.2[k], k)
                cells += 1
            }
        }
        guard cells > 0 else { return Array(repeating: convert(.nan), count: plan.brackets.count) }
        let steps = min(domain.reader.steps(variable), count)
        var mixed = [Float](repeating: 0, count: plan.brackets.count)
        // When every distinct corner carries weight (off the nodes and edges, always), they are
        // the cells above in the same order: read together, each into its own slot.
        let distinct = distinctCorners
        if cells == distinct.count, cells > 1, (0..<cells).allSatisfy({ corner[$0] == distinct.corners[$0] }) {
            try readCorners(variable, steps: steps)
            let totals = (UnsafeBufferPointer(slot(corner[0], steps)), UnsafeBufferPointer(slot(corner[1], steps)),
                          UnsafeBufferPointer(slot(corner[min(2, cells - 1)], steps)), UnsafeBufferPointer(slot(corner[min(3, cells - 1)], steps)))
            if !plan.addCompleteAmounts(totals, cells: cells, weights: weights, into: &mixed) {
                for k in 0..<cells {
                    plan.addAmounts(totals: UnsafeBufferPointer(slot(corner[k], steps)), filled: slot(5, steps), weight: weights[k], into: &mixed)
                }
            }
        } else {
            for k in 0..<cells {
                try read(variable, corner: corner[k], into: 0, steps: steps)
                plan.addAmounts(totals: UnsafeBufferPointer(slot(0, steps)), filled: slot(5, steps), weight: weights[k], into: &mixed)
            }
        }
        mixed.withUnsafeMutableBufferPointer { mixed in
            for k in mixed.indices {
                let amount = mixed[k]
                mixed[k] = convert(amount.isNaN ? .nan : max(amount, 0))
            }
        }
        return mixed
    }

    /// The series of the stencil's corner with the largest weight (the first such), handed to
    /// `body`: for categories (weather code) that must not be averaged.
    func nearest<Result>(_ variable: ForecastVariable, _ body: (UnsafeBufferPointer<Float>) -> Result) throws(QueryError) -> Result {
        let s = stencil, w = s.weights
        let weights = SIMD4<Float>(w.w00, w.w10, w.w01, w.w11)
        var best = 0
        for k in 1..<4 where weights[best] < weights[k] { best = k }
        let steps = min(domain.reader.steps(variable), count)
        try read(variable, corner: best, into: 0, steps: steps)
        return body(UnsafeBufferPointer(slot(0, steps)))
    }

    /// Hints the cache lines the reads of `variables` will touch: first every block's head,
    /// then every corner cell's packed values (found through the heads), so that a forecast
    /// waits for memory about twice instead of once per block and once per cell. The blocks
    /// of a random place are rarely in a core's cache: a store file is a few MB, the reads
    /// hop across it. Changes no answer.
    func prefetch(_ variables: [ForecastVariable]) {
        let reader = domain.reader, count = count, places = places
        // A block's head once for all the corners in its tile (all four, three times in four);
        // an aliased corner (on a node or an edge) asks for the same lines twice: harmless.
        let t0 = places.0?.tile, t1 = places.1?.tile, t2 = places.2?.tile
        let newTile = (true, places.1?.tile != t0, places.2?.tile != t0 && places.2?.tile != t1,
                       places.3?.tile != t0 && places.3?.tile != t1 && places.3?.tile != t2)
        func corners(_ variable: ForecastVariable, _ payloads: Bool) {
            if let p = places.0 { reader.prefetch(variable, at: p, count: count, payloads: payloads) }
            if let p = places.1, payloads || newTile.1 { reader.prefetch(variable, at: p, count: count, payloads: payloads) }
            if let p = places.2, payloads || newTile.2 { reader.prefetch(variable, at: p, count: count, payloads: payloads) }
            if let p = places.3, payloads || newTile.3 { reader.prefetch(variable, at: p, count: count, payloads: payloads) }
        }
        // Each source once (the 2 m temperature alone is read by six default variables, the
        // wind components by four): the asks were a tenth of a forecast's work (S1).
        var sources: [ForecastVariable] = [.elevation]
        for variable in variables {
            for source in variable.sources where !sources.contains(source) { sources.append(source) }
            // The weather code's and the tilted irradiance's sources read when the store holds them.
            for source in variable.spec.optionalSources where !sources.contains(source) && reader.steps(source) > 0 { sources.append(source) }
        }
        for payloads in [false, true] {
            for source in sources { corners(source, payloads) }
        }
    }

    /// Reads the distinct corners' series of `variable` (`distinctCorners`) into their own
    /// slots. Corners that share a tile's block are decoded together
    /// (`DomainFileReader.readSeries(_:sharing:into:count:)`): all four, or two pairs when the
    /// place's cell straddles a tile edge; the rest one by one.
    private func readCorners(_ variable: ForecastVariable, steps: Int) throws(QueryError) {
        let reader = domain.reader
        func pointer(_ k: Int) -> UnsafeMutablePointer<Float>? { slot(k, steps).baseAddress }
        func pair(_ a: Int, _ b: Int) throws(QueryError) {
            if steps > 1, let pa = place(a), let pb = place(b), pa.tile == pb.tile, let oa = pointer(a), let ob = pointer(b) {
                do throws(StoreError) {
                    if try reader.readSeries(variable, sharing: (pa, pb, nil, nil), into: (oa, ob, nil, nil), count: steps) { return }
                } catch {
                    throw .store(error)
                }
            }
            try read(variable, corner: a, into: a, steps: steps)
            try read(variable, corner: b, into: b, steps: steps)
        }
        let distinct = distinctCorners
        switch distinct.count {
        case 4:
            if steps > 1, let p0 = places.0, let p1 = places.1, let p2 = places.2, let p3 = places.3 {
                if p0.tile == p1.tile, p0.tile == p2.tile, p0.tile == p3.tile,
                   let o0 = pointer(0), let o1 = pointer(1), let o2 = pointer(2), let o3 = pointer(3) {
                    do throws(StoreError) {
                        if try reader.readSeries(variable, sharing: (p0, p1, p2, p3), into: (o0, o1, o2, o3), count: steps) { return }
                    } catch {
                        throw .store(error)
                    }
                    for k in 0..<4 { try read(variable, corner: k, into: k, steps: steps) }
                    return
                }
                if p0.tile == p2.tile, p1.tile == p3.tile {
                    try pair(0, 2)
                    try pair(1, 3)
                    return
                }
            }
            try pair(0, 1)
            try pair(2, 3)
        case 2:
            try pair(0, distinct.corners[1])
        default:
            try read(variable, corner: 0, into: 0, steps: steps)
        }
    }

    /// Reads corner `corner`'s series of `variable` into slot `k`.
    private func read(_ variable: ForecastVariable, corner: Int, into k: Int, steps: Int) throws(QueryError) {
        do throws(StoreError) {
            guard let place = place(corner) else {
                // Outside the grid: the read by (i, j) refuses it, in its own words.
                let (i, j) = corner == 0 ? (stencil.i0, stencil.j0) : corner == 1 ? (stencil.i1, stencil.j0)
                    : corner == 2 ? (stencil.i0, stencil.j1) : (stencil.i1, stencil.j1)
                return try domain.reader.readSeries(variable, i: i, j: j, into: slot(k, steps), scratch: scratch, count: steps)
            }
            try domain.reader.readSeries(variable, at: place, into: slot(k, steps), scratch: scratch, count: steps)
        } catch {
            throw .store(error)
        }
    }
}

/// The requested times against one domain's frames, worked out once per forecast and used
/// for every variable: brackets for instantaneous values, window starts for amounts.
struct TimePlan: Sendable {
    let brackets: [TimeBracket?]
    /// For each time, the bracket of (time - window), or nil when the window starts before
    /// the run; `firstFrameOnly` marks a time on the first frame (its own stored interval).
    let windowStarts: [TimeBracket?]
    let onFirstFrame: [Bool]
    /// Frames to decode: one past the last frame any bracket uses.
    let framesNeeded: Int

    /// The plan of these times on the domain's frames: one of the last few made when it was
    /// for the same frames, times and window (a server's requests within an hour and a
    /// request's places share them; working the brackets out again was 5 % of a forecast of
    /// the default variables), else a new one.
    static func of(times: [Int64], window: Int64, domain: StoredDomain) -> TimePlan {
        recent.value(for: Key(frames: domain.metadata.times, times: times, window: window)) {
            TimePlan(times: times, window: window, domain: domain)
        }
    }

    /// What a plan is made from: the frames (`domain.times` is made from the same list), the
    /// times and the window; it depends on nothing else.
    private struct Key: Equatable, Sendable {
        let frames: [Int64]
        let times: [Int64]
        let window: Int64
    }

    private static let recent = RecentAnswers<Key, TimePlan>(capacity: 4)

    init(times: [Int64], window: Int64, domain: StoredDomain) {
        let frames = domain.metadata.times
        brackets = times.map { domain.times.bracket(at: $0) }
        windowStarts = times.map { domain.times.bracket(at: $0 - window) }
        onFirstFrame = times.map { $0 == frames.first }
        let last = brackets.compactMap { $0.map { $0.isOnFrame ? $0.lower : $0.upper } }.max() ?? 0
        framesNeeded = min(last + 1, frames.count)
    }

    /// Linear in time between the bracketing frames (exactly a frame's value on a frame), in
    /// the units `convert` gives.
    func atTimes(_ series: UnsafeBufferPointer<Float>, _ convert: (Float) -> Float = { $0 }) -> [Float] {
        if series.count == 1 { return Array(repeating: convert(series[0]), count: brackets.count) }
        return brackets.map { convert($0.map { Self.value($0, series) } ?? .nan) }
    }

    /// `TimeBracket.value(of:)`, the same arithmetic, written here so that these loops inline
    /// it: the call across modules was not inlined, and it and `isOnFrame` were 4 % of a
    /// forecast of the default variables (issue 30).
    @inline(__always)
    static func value(_ bracket: TimeBracket, _ series: UnsafeBufferPointer<Float>) -> Float {
        if bracket.upperWeight == 0 { return series[bracket.lower] }
        return bracket.lowerWeight * series[bracket.lower] + bracket.upperWeight * series[bracket.upper]
    }

    /// `TimeBracket.isOnFrame`, inlined here for the same reason.
    @inline(__always)
    static func isOnFrame(_ bracket: TimeBracket) -> Bool { bracket.upperWeight == 0 }

    /// The value of the interval holding each time: the first frame at or after it (weather
    /// codes describe the interval ending at their frame).
    func intervalValues(_ series: UnsafeBufferPointer<Float>) -> [Float] {
        brackets.map { bracket in
            guard let bracket else { return .nan }
            let frame = Self.isOnFrame(bracket) ? bracket.lower : bracket.upper
            return frame < series.count ? series[frame] : .nan
        }
    }

    /// Adds `weight` x one cell's amount over (time - window, time] to `mixed`, for each time.
    ///
    /// The amount comes from the cell's running totals (one per frame): the difference of the
    /// totals interpolated linearly in time, so sums over any window equal the stored total
    /// difference. A missing total marks its interval unknown; it counted as zero in later
    /// totals, so later intervals stay exact. An amount is only ever built from the same
    /// interval at every cell used: when any weighted cell's amount is unknown, the place's
    /// amount is unknown (policy "answer unknown", docs/VARIABLES.md). Interpolating the totals
    /// first would let a gap at one cell leak the other cells' rain of the gap into the next
    /// known hour.
    /// - Parameter filled: room for `totals.count` values.
    func addAmounts(totals: UnsafeBufferPointer<Float>, filled: UnsafeMutableBufferPointer<Float>, weight: Float,
                    into mixed: inout [Float]) {
        // Totals with unknown intervals filled by the previous known total.
        var previous: Float = 0, complete = true
        for k in totals.indices {
            if totals[k].isNaN { filled[k] = previous; complete = false } else { previous = totals[k]; filled[k] = previous }
        }
        let buffer = UnsafeBufferPointer(rebasing: filled[0..<totals.count])
        mixed.withUnsafeMutableBufferPointer { mixed in
            if complete {
                // No unknown interval: the filled totals are the totals, and no window needs
                // searching for one (a cell's series is almost always complete).
                for index in brackets.indices where index < mixed.count {
                    mixed[index] += weight * completeAmount(at: index, totals: totals)
                }
            } else {
                for index in brackets.indices where index < mixed.count {
                    mixed[index] += weight * amount(at: index, totals: totals, filled: buffer)
                }
            }
        }
    }

    /// `addAmounts(totals:filled:weight:into:)` for the first `cells` (2 to 4) of `totals`, cell
    /// after cell, when none of them has an unknown total (almost always): each time's bracket
    /// read once for all the cells, and no filled copy of the totals made. The same sums in the
    /// same order, so the same bits. False, having added nothing, when some total is unknown.
    func addCompleteAmounts(_ totals: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>),
                            cells: Int, weights: SIMD4<Float>, into mixed: inout [Float]) -> Bool {
        guard !Self.hasUnknown(totals.0), !Self.hasUnknown(totals.1),
              cells < 3 || !Self.hasUnknown(totals.2), cells < 4 || !Self.hasUnknown(totals.3) else { return false }
        // One cell's weighted amount added to `sum`. The cells are written out rather than
        // looped over: a loop picked each cell's totals by a switch.
        @inline(__always)
        func add(_ sum: inout Float, _ c: Int, _ series: UnsafeBufferPointer<Float>, _ end: TimeBracket?, _ start: TimeBracket?, first: Bool) {
            guard c < cells else { return }
            sum += weights[c] * Self.completeAmount(end: end, start: start, onFirstFrame: first, totals: series)
        }
        mixed.withUnsafeMutableBufferPointer { mixed in
            for index in brackets.indices where index < mixed.count {
                let end = brackets[index], start = windowStarts[index], first = onFirstFrame[index]
                var sum = mixed[index]
                add(&sum, 0, totals.0, end, start, first: first)
                add(&sum, 1, totals.1, end, start, first: first)
                add(&sum, 2, totals.2, end, start, first: first)
                add(&sum, 3, totals.3, end, start, first: first)
                mixed[index] = sum
            }
        }
        return true
    }

    /// Whether any value of `series` is unknown (NaN), four at a time.
    static func hasUnknown(_ series: UnsafeBufferPointer<Float>) -> Bool {
        guard let base = series.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var unknown = SIMDMask<SIMD4<Int32>>(repeating: false), k = 0
        while k + 4 <= series.count {
            let values = raw.loadUnaligned(fromByteOffset: k * MemoryLayout<Float>.stride, as: SIMD4<Float>.self)
            unknown .|= values .!= values
            k += 4
        }
        while k < series.count {
            if series[k].isNaN { return true }
            k += 1
        }
        return any(unknown)
    }

    /// `amount(at:totals:filled:)` of a cell whose totals have no unknown value.
    @inline(__always)
    private func completeAmount(at index: Int, totals: UnsafeBufferPointer<Float>) -> Float {
        Self.completeAmount(end: brackets[index], start: windowStarts[index], onFirstFrame: onFirstFrame[index], totals: totals)
    }

    /// The same from a time's brackets, which `addCompleteAmounts` reads once for all cells.
    @inline(__always)
    private static func completeAmount(end: TimeBracket?, start: TimeBracket?, onFirstFrame: Bool, totals: UnsafeBufferPointer<Float>) -> Float {
        guard let end else { return .nan }
        guard let start else {
            // Only the first frame's own stored interval is known before the run.
            return onFirstFrame && !totals.isEmpty ? totals[0] : .nan
        }
        return max(value(end, totals) - value(start, totals), 0)
    }

    /// One cell's amount for the time at `index` (see `addAmounts`).
    private func amount(at index: Int, totals: UnsafeBufferPointer<Float>, filled: UnsafeBufferPointer<Float>) -> Float {
        guard let end = brackets[index] else { return .nan }
        guard let start = windowStarts[index] else {
            // Only the first frame's own stored interval is known before the run.
            return onFirstFrame[index] && !totals.isEmpty ? totals[0] : .nan
        }
        // Any unknown interval inside (start, end] makes the amount unknown.
        let upperFrame = Self.isOnFrame(end) ? end.lower : end.upper
        var k = start.lower + 1
        while k <= max(upperFrame, start.lower + 1) {
            if k < totals.count && totals[k].isNaN { return .nan }
            k += 1
        }
        return max(Self.value(end, filled) - Self.value(start, filled), 0)
    }
}
