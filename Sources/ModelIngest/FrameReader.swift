import Catalog
import GridGeometry
import Meteorology
import NetCDF

/// One frame of a domain, every catalog variable as a 2-D field (south_north x west_east,
/// row-major) in the catalog's unit.
package struct FrameFields: Sendable {
    package let time: Int64
    package var values: [ForecastVariable: [Float]]
}

/// The rows of a domain one reader covers: all of them, or one band of whole rows when the
/// extraction splits a domain between the cores (every derivation is per cell, so a band's
/// values are the whole domain's values of its cells).
package struct RowBand: Sendable, Equatable {
    package let rows: Range<Int>
    package let westEast: Int
    package let southNorth: Int

    package init(rows: Range<Int>, westEast: Int, southNorth: Int) {
        self.rows = rows
        self.westEast = westEast
        self.southNorth = southNorth
    }

    /// The whole grid of the domain's files (a moving nest's own grid, not the covering one).
    package init(domain: Domain) {
        self.init(rows: 0..<domain.fileSouthNorth, westEast: domain.fileWestEast, southNorth: domain.fileSouthNorth)
    }

    /// The domain's rows in `count` bands of nearly equal height (fewer when it has fewer rows).
    package static func split(_ domain: Domain, into count: Int) -> [RowBand] {
        let rows = domain.fileSouthNorth, bands = max(1, min(count, rows))
        return (0..<bands).map { band in
            RowBand(rows: (band * rows / bands)..<((band + 1) * rows / bands), westEast: domain.fileWestEast, southNorth: rows)
        }
    }

    /// Cells in the band.
    package var cells: Int { rows.count * westEast }
    /// The band's cells among the domain's (row-major, south_north slowest).
    package var cellRange: Range<Int> { (rows.lowerBound * westEast)..<(rows.upperBound * westEast) }

    /// Whether a field whose last two dimensions are `shape`'s lies on the mass grid, so that
    /// the band is a hyperslab of it.
    func fits(_ shape: [Int]) -> Bool {
        shape.count >= 2 && shape[shape.count - 2] == southNorth && shape[shape.count - 1] == westEast
    }
}

/// Streams a domain frame by frame, deriving the catalog variables (docs/VARIABLES.md).
///
/// Holds one frame of raw fields at a time plus the per-cell accumulation state, so memory
/// stays at a few fields whatever the run's length. Frames must be read in order, since
/// precipitation is de-accumulated against the previous frame.
package struct FrameReader {
    package let domain: Domain
    /// The variables produced, in catalog order.
    package let variables: [ForecastVariable]
    private var next = 0
    /// The rows this reader covers, and their number of cells.
    package let band: RowBand
    private let cells: Int
    private var rotation: (cos: [Float], sin: [Float])
    private var elevation: [Float]?
    /// A moving nest: where its grid lay at the previous frame, and the terrain of every cell
    /// of the covering grid it passed over (the stored elevation).
    private var placedAt: CellOffset?
    private let coveringElevation: [Float]?
    /// Whether the domain has visibility's sources.
    private let hasVisibility: Bool
    private var rain: Deaccumulator?
    private var snow: Deaccumulator?
    /// Open-Meteo's rain/showers split (docs/VARIABLES.md): grid-scale total (RAINNC), its
    /// frozen parts, and convective (showers).
    private var gridScale: Deaccumulator?
    private var frozen: Deaccumulator?
    private var showers: Deaccumulator?
    /// HAILNC, and SFROFF + UDROFF (Noah's surface and underground runoff, mm since the start).
    private var hailAmount: Deaccumulator?
    private var runoff: Deaccumulator?
    /// Noah's POTEVP (mm since the start).
    private var potential: Deaccumulator?
    /// Staggered levels of PH + PHB the cloud layers read first: the previous frame's need
    /// and a level of margin (nil: the whole column).
    private var layerGeopotentialLevels: Int?
    /// Levels of P and PB the sea-level pressure reads first (`SeaLevelColumns`).
    private var seaLevelSearchLevels: Int?
    /// The height and pressure levels, and how deep they read (`LevelDeriver`).
    private var levels = LevelDeriver()
    /// Resets and unknown cells met while de-accumulating, for the run's warnings.
    package private(set) var accumulationReport = DeaccumulationReport()
    /// Missing values (fill values, NaN) met in the raw fields, per source variable name:
    /// they are stored as missing, and the operator hears about them once.
    package private(set) var missingValues: [String: Int] = [:]
    /// The neighbourhood fractions' radius in cells (issue 46; `extract --neighbourhood-km`).
    package var neighbourhoodRadius = FrameReader.defaultNeighbourhoodRadius
    /// Three cells: 27 km on a 9 km grid, 9 km on a 3 km one, the scale a convection-permitting
    /// run places a shower to (Schwartz and Sobash 2017 use radii of a few grid lengths).
    package static let defaultNeighbourhoodRadius = 3.0
    /// Open-Meteo's threshold for its precipitation probability: 0.1 mm in the hour.
    package static let wetHourMillimetres: Float = 0.1
    /// And for its snowfall probability: 0.1 cm in the hour.
    package static let snowyHourCentimetres: Float = 0.1

    /// The variables a reader of `domain` produces when asked for `wanted` (nil: all of the
    /// default extraction set, `surface`, it can provide), in catalog order.
    package static func variables(of domain: Domain, wanted: [ForecastVariable]?) -> [ForecastVariable] {
        (wanted ?? domain.variables.provided(by: .surface)).filter(domain.variables.available.contains).sorted()
    }

    /// Prepares to read `domain`, producing `variables` (default: all it can provide), for the
    /// cells of `band` (default: the whole domain).
    ///
    /// - Throws: `IngestError` when static fields (terrain, rotation) cannot be read.
    package init(domain: Domain, variables: [ForecastVariable]? = nil, band: RowBand? = nil) throws(IngestError) {
        self.domain = domain
        self.variables = Self.variables(of: domain, wanted: variables)
        hasVisibility = domain.variables.available.contains(.visibility)
        let band = band ?? RowBand(domain: domain)
        self.band = band
        cells = band.cells
        let first = domain.files[0]
        elevation = try Self.staticField(first, .terrainHeight, band: band)
        // The rotation is decided for the whole domain (the file's angles only when all are
        // finite), then cut to the band, so that a band gets the whole domain's numbers.
        let fileGrid = try domain.motion.map { motion throws(IngestError) in try Self.grid(of: domain, at: motion.offsets[0], motion: motion) } ?? domain.grid
        let whole = try Self.windRotation(file: first, frame: 0, grid: fileGrid)
        rotation = band == RowBand(domain: domain) ? whole
            : (Array(whole.cos[band.cellRange]), Array(whole.sin[band.cellRange]))
        coveringElevation = try domain.motion.map { motion throws(IngestError) in try Self.coveringTerrain(domain, motion: motion) } ?? nil

        let simulationStart = first.simulationStart
        let startsAtSimulationStart = simulationStart == nil || domain.frames.first?.time == simulationStart
        let bucket = first.bucketMM ?? 0
        let countsComplete = !(first.variables[.rainConvective] != nil && first.variables[.bucketConvective] == nil)
            && !(first.variables[.rainNonConvective] != nil && first.variables[.bucketNonConvective] == nil)
        let settings = AccumulationSettings(bucketMillimetres: bucket, bucketCountsComplete: countsComplete,
                                            firstFrameIsSimulationStart: startsAtSimulationStart)
        if self.variables.contains(.precipitation) || self.variables.contains(.precipitationNeighbourhood) {
            rain = Deaccumulator(cellCount: cells, settings: settings)
        }
        if first.variables[.snowWater] != nil && (self.variables.contains(.snowfall) || self.variables.contains(.snowfallNeighbourhood)) {
            var snowSettings = settings
            snowSettings.bucketMillimetres = 0
            snow = Deaccumulator(cellCount: cells, settings: snowSettings)
        }
        let liquid = self.variables.contains(.rainNeighbourhood) || self.variables.contains(.freezingRainNeighbourhood)
        if self.variables.contains(.rain) || liquid {
            gridScale = Deaccumulator(cellCount: cells, settings: settings)
            var frozenSettings = settings
            frozenSettings.bucketMillimetres = 0
            frozen = Deaccumulator(cellCount: cells, settings: frozenSettings)
        }
        if self.variables.contains(.showers) || self.variables.contains(.rainNeighbourhood) { showers = Deaccumulator(cellCount: cells, settings: settings) }
        // Land-surface totals and hail have no bucket.
        var plain = settings
        plain.bucketMillimetres = 0
        if self.variables.contains(.hail) { hailAmount = Deaccumulator(cellCount: cells, settings: plain) }
        if self.variables.contains(.runoff) { runoff = Deaccumulator(cellCount: cells, settings: plain) }
        if self.variables.contains(.potentialEvapotranspiration) { potential = Deaccumulator(cellCount: cells, settings: plain) }
    }

    /// Reads and derives the next frame; nil after the last one.
    ///
    /// The derivations run in dependency order, each reading the raw fields it needs (read
    /// once, in `readSurface`) and what the ones before it made; which variable needs which
    /// sources is `Derivations.table`, which the availability follows too.
    ///
    /// - Throws: `IngestError.unreadable` naming the file and variable that failed.
    package mutating func nextFrame() throws(IngestError) -> FrameFields? {
        guard next < domain.frames.count else { return nil }
        let frame = domain.frames[next]
        next += 1
        let file = domain.files[frame.fileIndex]
        try follow(frame: next - 1)
        let raw = RawFrame(file: file, frame: frame.frameIndex, band: band, missing: MissingCounter())
        var out: [ForecastVariable: [Float]] = [:]
        let wants = Set(variables)
        raw.columns.isEnabled = wants.contains { $0.level != nil }
        // Lowest levels the sea-level pressure reads, for visibility to reuse.
        let kept = LowestLevels()

        let surface = try readSurface(raw)
        deriveThermodynamics(surface, wants: wants, into: &out)
        // Before the cloud layers: the levels read PH and PHB deeper, the layers take a prefix.
        try levels.derive(raw, wants: wants, terrain: elevation, rotation: rotation, into: &out)
        let geopotential = try readGeopotential(raw, wants: wants)
        try deriveSeaLevelPressure(raw, surface, frame: frame, file: file, kept: kept, geopotential: geopotential, wants: wants, into: &out)
        deriveWind(surface, wants: wants, into: &out)
        try copyStoredFields(raw, surface, wants: wants, into: &out)
        try deriveClouds(raw, kept: kept, geopotential: geopotential, wants: wants, into: &out)
        try ColumnFields.derive(raw, temperature2m: surface.t2, mixingRatio2m: surface.q2, surfacePressure: surface.pressure, terrain: elevation,
                                wants: wants, into: &out)
        try CloudBoundaryFields.derive(raw, terrain: elevation, wants: wants, into: &out)
        try deriveAmounts(raw, surface, frame: frame, file: file, wants: wants, into: &out)
        if let elevation, wants.contains(.elevation) { out[.elevation] = elevation }
        for key in Array(out.keys) where !wants.contains(key) { out[key] = nil }
        // Every variable the derivation table said this domain provides must have been made:
        // a disagreement is an error here, never an all-missing variable in the store.
        if let lacking = variables.first(where: { out[$0] == nil }) {
            throw IngestError.missingMetadata(path: file.path, what: "\(lacking.rawValue) at \(ModelTime.iso(frame.time)): its sources are listed but it could not be derived from them (a source of the wrong shape?)")
        }
        for (name, count) in raw.missing.counts { missingValues[name, default: 0] += count }
        if let motion = domain.motion {
            return FrameFields(time: frame.time, values: cover(out, motion: motion, at: motion.offsets[next - 1]))
        }
        return FrameFields(time: frame.time, values: out)
    }


    /// PH + PHB summed, and the lowest staggered level above which every cell is high cloud.
    private typealias Geopotential = (values: [Float], heightLevels: Int?)

    /// The surface fields most derivations share, read once per frame.
    private struct SurfaceInputs {
        let t2: [Float]?
        let q2: [Float]?
        let pressure: [Float]?
        let u10: [Float]?
        let v10: [Float]?
        let shortwave: [Float]?
    }

    private static func wantsLayers(_ wants: Set<ForecastVariable>) -> Bool {
        [ForecastVariable.cloudCoverLow, .cloudCoverMid, .cloudCoverHigh].contains(where: wants.contains)
    }

    private func readSurface(_ raw: RawFrame) throws(IngestError) -> SurfaceInputs {
        let t2 = try raw.field(.temperature2m)
        let q2 = try raw.field(.mixingRatio2m)
        var pressure = try raw.field(.surfacePressure)
        if pressure == nil, let pstar = try raw.field(.pstar) {
            // MM5: p* is surface pressure minus the model top pressure (ptop, a scalar).
            let top = try raw.scalar(.modelTopPressure) ?? SourceFile.assumedModelTopPressure   // warned by ModelRun
            pressure = pstar.map { $0 + top }
        }
        let u10 = try raw.field(.u10m), v10 = try raw.field(.v10m)
        let shortwave = try raw.field(.shortwaveDown)

        return SurfaceInputs(t2: t2, q2: q2, pressure: pressure, u10: u10, v10: v10, shortwave: shortwave)
    }

    /// 2 m temperature, relative humidity, dew point and surface pressure.
    private func deriveThermodynamics(_ surface: SurfaceInputs, wants: Set<ForecastVariable>, into out: inout [ForecastVariable: [Float]]) {
        let (t2, q2, pressure) = (surface.t2, surface.q2, surface.pressure)
        if let t2, wants.contains(.temperature2m) { out[.temperature2m] = t2.map(celsius(fromKelvin:)) }
        if let t2, let q2, let pressure {
            if wants.contains(.relativeHumidity2m) || wants.contains(.apparentTemperature) || wants.contains(.vapourPressureDeficit) {
                out[.relativeHumidity2m] = (0..<cells).map { relativeHumidity(mixingRatio: q2[$0], temperature: t2[$0], pressure: pressure[$0]) }
            }
        }
        if let q2, let pressure, wants.contains(.dewPoint2m) {
            // Supersaturated Q2 (real WRF output has it in fog) puts wrf-python's dew point up
            // to ~0.4 K above T2; capped at T2, as relative humidity is capped at 100 %.
            out[.dewPoint2m] = (0..<cells).map { cell in
                let td = celsius(fromKelvin: dewPoint(mixingRatio: q2[cell], pressure: pressure[cell]))
                guard let t2 else { return td }
                return td.isNaN ? td : min(td, celsius(fromKelvin: t2[cell]))
            }
        }
        if let pressure, wants.contains(.surfacePressure) { out[.surfacePressure] = pressure.map(hectopascals(fromPascals:)) }
    }

    private mutating func readGeopotential(_ raw: RawFrame, wants: Set<ForecastVariable>) throws(IngestError) -> Geopotential? {
        // PH + PHB when the cloud layers want them, up to the lowest level that is above 6 km
        // in every cell (the levels above it are high whatever their height, so their PH and
        // PHB are not read): the previous frame's need plus a level is read first, the whole
        // column only when that falls short. The sea-level pressure takes its lowest levels
        // from this sum instead of reading them again.
        var geopotential: Geopotential?
        if Self.wantsLayers(wants), let elevation, let mass = raw.levelCount(.cloudFraction), let staggered = raw.levelCount(.geopotentialPerturbation) {
            // A file whose PH is not on CLDFRA's staggered levels is read whole, without the
            // bound, and refused by `cloudCoverLayers`.
            var read = staggered == mass + 1 ? min(staggered, layerGeopotentialLevels ?? staggered) : staggered
            var sum = try raw.geopotential(lowest: read)
            var highFrom = sum.flatMap { lowestHighLevel(geopotential: $0, staggeredLevels: read, terrainHeight: elevation) }
            if highFrom == nil, read < staggered {
                read = staggered
                sum = try raw.geopotential(lowest: read)
                highFrom = sum.flatMap { lowestHighLevel(geopotential: $0, staggeredLevels: read, terrainHeight: elevation) }
            }
            if let sum {
                // Heights of the mass levels below `highFrom` need its staggered levels 0...highFrom;
                // finding it took one more. Next frame: those and one level of margin.
                layerGeopotentialLevels = highFrom.map { $0 + 3 }
                geopotential = (sum, highFrom)
            }
        }
        return geopotential
    }

    private mutating func deriveSeaLevelPressure(_ raw: RawFrame, _ surface: SurfaceInputs, frame: DomainFrame, file: SourceFile,
                                                 kept: LowestLevels, geopotential: Geopotential?, wants: Set<ForecastVariable>,
                                                 into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        let (t2, q2, pressure) = (surface.t2, surface.q2, surface.pressure)
        if wants.contains(.pressureMSL) {
            // The file's own field, else wrf-python's slp from the lowest model levels, else
            // the WMO reduction of PSFC with T2 (SeaLevelMethod; docs/VARIABLES.md).
            func reduced(_ cell: Int) -> Float {
                guard let pressure, let t2, let elevation else { return .nan }
                return q2.map { seaLevelPressure(surfacePressure: pressure[cell], elevation: elevation[cell], temperature2m: t2[cell], mixingRatio2m: $0[cell]) }
                    ?? seaLevelPressure(surfacePressure: pressure[cell], elevation: elevation[cell], temperature2m: t2[cell])
            }
            if let direct = try raw.field(.seaLevelPressure) {
                out[.pressureMSL] = direct.map(hectopascals(fromPascals:))
            } else if let columns = SeaLevelColumns(file: file, band: band) {
                let fromLevels = try columns.seaLevelPressure(frame: frame.frameIndex, keeping: kept, geopotential: geopotential?.values,
                                                              searchLevels: &seaLevelSearchLevels)
                // A column without a level 100 hPa above the ground (none in real output)
                // falls back to the reduction rather than staying empty.
                out[.pressureMSL] = (0..<cells).map { hectopascals(fromPascals: fromLevels[$0].isNaN ? reduced($0) : fromLevels[$0]) }
            } else if pressure != nil, t2 != nil, elevation != nil {
                out[.pressureMSL] = (0..<cells).map { hectopascals(fromPascals: reduced($0)) }
            }
        }
    }

    /// Earth-relative 10 m wind, and the apparent temperature that needs it.
    private func deriveWind(_ surface: SurfaceInputs, wants: Set<ForecastVariable>, into out: inout [ForecastVariable: [Float]]) {
        let (t2, u10, v10, shortwave) = (surface.t2, surface.u10, surface.v10, surface.shortwave)
        if let u10, let v10 {
            var u = [Float](repeating: 0, count: cells), v = u
            for cell in 0..<cells {
                let wind = earthRelativeWind(u: u10[cell], v: v10[cell], cosAlpha: rotation.cos[cell], sinAlpha: rotation.sin[cell])
                u[cell] = wind.u
                v[cell] = wind.v
            }
            out[.windU10m] = u
            out[.windV10m] = v
            if wants.contains(.apparentTemperature), let t2 = out[.temperature2m] ?? t2.map({ $0.map(celsius(fromKelvin:)) }),
               let rh = out[.relativeHumidity2m] {
                out[.apparentTemperature] = (0..<cells).map { cell in
                    apparentTemperature(temperature: t2[cell], relativeHumidity: rh[cell],
                                        windSpeed: windSpeed(u: u[cell], v: v[cell]),
                                        shortwaveRadiation: shortwave?[cell] ?? 0)
                }
            }
        }
    }

    /// Fields stored as the file has them (or nearly): radiation, VPD, snow, gusts, soil, ...
    private func copyStoredFields(_ raw: RawFrame, _ surface: SurfaceInputs, wants: Set<ForecastVariable>,
                                  into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        let (t2, u10, v10, shortwave) = (surface.t2, surface.u10, surface.v10, surface.shortwave)
        if let shortwave, wants.contains(.shortwaveRadiation) { out[.shortwaveRadiation] = shortwave }
        if wants.contains(.vapourPressureDeficit), let t2, let rh = out[.relativeHumidity2m] {
            out[.vapourPressureDeficit] = (0..<cells).map { vapourPressureDeficit(temperature: celsius(fromKelvin: t2[$0]), relativeHumidity: rh[$0]) }
        }
        if wants.contains(.windGusts10m), let u10, let v10, let ust = try raw.field(.frictionVelocity) {
            // The grid-relative components have the earth-relative speed.
            out[.windGusts10m] = (0..<cells).map { windGust(u: u10[$0], v: v10[$0], frictionVelocity: ust[$0]) }
        }
        // Variables copied from one field, as the registry declares them (`VariableSpec.field`).
        for variable in variables {
            guard let field = variable.spec.field, let values = try raw.field(SourceRole(field: field)) else { continue }
            switch field.conversion {
            case .none: out[variable] = values
            case .kelvinToCelsius: out[variable] = values.map(celsius(fromKelvin:))
            case .negated: out[variable] = values.map { -$0 }
            }
        }
        // Snow density from the raw SNOW and SNOWH (the stored depth is rounded to 5 mm, as deep
        // as most of a thin pack).
        if wants.contains(.snowDensity), let water = try raw.field(Derivations.snowWaterField),
           let depth = try raw.field(Derivations.snowDepthField) {
            out[.snowDensity] = zip(water, depth).map { snowDensity(waterEquivalent: $0, depth: $1) }
        }
        // Noah's four layers (SoilLayers checked the file's ZS when it was opened).
        if ForecastVariable.soilTemperatures.contains(where: wants.contains), let layers = try raw.levels(.soilTemperature) {
            for (variable, layer) in zip(ForecastVariable.soilTemperatures, layers) { out[variable] = layer.map(celsius(fromKelvin:)) }
        }
        if ForecastVariable.soilMoistures.contains(where: wants.contains), let layers = try raw.levels(.soilMoisture) {
            for (variable, layer) in zip(ForecastVariable.soilMoistures, layers) { out[variable] = layer }
        }
        if ForecastVariable.soilMoistureIndices.contains(where: wants.contains), let layers = try raw.levels(.relativeSoilMoisture) {
            for (variable, layer) in zip(ForecastVariable.soilMoistureIndices, layers) { out[variable] = layer }
        }
    }

    /// Cloud cover (column maximum and layers by height) and visibility.
    private func deriveClouds(_ raw: RawFrame, kept: LowestLevels, geopotential: Geopotential?, wants: Set<ForecastVariable>,
                              into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        // CLDFRA is read once for the column maximum and the three layers.
        if wants.contains(.cloudCover) || Self.wantsLayers(wants), let fraction = try raw.column(.cloudFraction) {
            if wants.contains(.cloudCover) { out[.cloudCover] = try raw.columnMaximumCloudPercent(fraction) }
            if Self.wantsLayers(wants), let elevation, let geopotential {
                let layers = try raw.cloudLayers(fraction: fraction.values, geopotential: geopotential.values, levels: fraction.levels,
                                                 heightLevels: geopotential.heightLevels, terrainHeight: elevation)
                out[.cloudCoverLow] = layers.low
                out[.cloudCoverMid] = layers.mid
                out[.cloudCoverHigh] = layers.high
            }
        }
        if hasVisibility && wants.contains(.visibility) {
            out[.visibility] = try raw.visibility(reusing: kept)
        }

    }

    /// Amounts over the interval ending at the frame.
    private mutating func deriveAmounts(_ raw: RawFrame, _ surface: SurfaceInputs, frame: DomainFrame, file: SourceFile,
                                        wants: Set<ForecastVariable>, into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        let amounts = try accumulate(raw, time: frame.time, path: file.path)
        if let precipitation = amounts.precipitation { out[.precipitation] = precipitation }
        if let snowfall = amounts.snowfall { out[.snowfall] = snowfall }
        if let hail = amounts.hail { out[.hail] = hail }
        if let runoff = amounts.runoff { out[.runoff] = runoff }
        if let potential = amounts.potential { out[.potentialEvapotranspiration] = potential }
        if let rain = amounts.rain { out[.rain] = rain }
        if let showers = amounts.showers { out[.showers] = showers }
        if wants.contains(.precipitationNeighbourhood), let precipitation = amounts.precipitation {
            out[.precipitationNeighbourhood] = try neighbourhoodFraction(of: precipitation, threshold: Self.wetHourMillimetres, path: file.path)
        }
        if wants.contains(.snowfallNeighbourhood), let snowfall = amounts.snowfall {
            out[.snowfallNeighbourhood] = try neighbourhoodFraction(of: snowfall, threshold: Self.snowyHourCentimetres, path: file.path)
        }
        if wants.contains(.rainNeighbourhood), let rain = amounts.rain {
            // Rain and showers; a run without RAINC/RAINSH has rain alone.
            let liquid = amounts.showers.map { showers in zip(rain, showers).map { $0 + $1 } } ?? rain
            out[.rainNeighbourhood] = try neighbourhoodFraction(of: liquid, threshold: Self.wetHourMillimetres, path: file.path)
        }
        if wants.contains(.freezingRainNeighbourhood), let rain = amounts.rain, let t2 = surface.t2 {
            // At or below 0 °C at 2 m the rain freezes (the weather code's rule); elsewhere none counts.
            let freezing = zip(rain, t2).map { amount, kelvin in kelvin.isNaN ? .nan : kelvin <= 273.15 ? amount : 0 }
            out[.freezingRainNeighbourhood] = try neighbourhoodFraction(of: freezing, threshold: Self.wetHourMillimetres, path: file.path)
        }
    }

    /// The share of cells near each cell (`NeighbourhoodFraction`) whose amount over the
    /// interval ending at the current frame is at least `threshold` an hour: the amount over
    /// a 3-hour interval is spread evenly over its hours, as the query spreads it. Unknown at
    /// the first frame, which has no interval of its own. On the grid of the domain's files (a
    /// moving nest's own grid, laid on the covering grid afterwards like every field), so the
    /// reader must cover every row: the extraction reads such a domain in one band.
    private func neighbourhoodFraction(of amounts: [Float], threshold: Float, path: String) throws(IngestError) -> [Float] {
        guard band == RowBand(domain: domain) else {
            throw .tooLarge(path: path, detail: "a neighbourhood fraction needs whole frames, and this reader covers rows \(band.rows) only")
        }
        guard next >= 2 else { return [Float](repeating: .nan, count: amounts.count) }
        let hours = Float(domain.frames[next - 1].time - domain.frames[next - 2].time) / 3600
        guard hours > 0 else { return [Float](repeating: .nan, count: amounts.count) }
        return NeighbourhoodFraction.percent(amounts.map { $0 / hours }, westEast: band.westEast, southNorth: band.southNorth,
                                             radius: neighbourhoodRadius, threshold: threshold)
    }

    /// The cells a reader's frames cover in the stored grid: its band, or for a moving nest
    /// (read whole) every cell of the covering grid.
    package var storedCells: Range<Int> {
        domain.motion == nil ? band.cellRange : 0..<(domain.grid.westEast * domain.grid.southNorth)
    }

    /// A moving nest at frame `index`: the terrain and wind rotation of where its grid lies now
    /// (WRF writes both per frame for a moving nest), and the de-accumulators' totals moved
    /// with the grid, so that each place's interval is measured against its own total.
    private mutating func follow(frame index: Int) throws(IngestError) {
        guard let motion = domain.motion else { return }
        let offset = motion.offsets[index], frame = domain.frames[index]
        let file = domain.files[frame.fileIndex]
        // Where the nest stayed put, its terrain and rotation are those already read.
        guard placedAt != offset else { return }
        if let previous = placedAt {
            let (columns, rows) = (offset.i - previous.i, offset.j - previous.j)
            for keyPath in [\FrameReader.rain, \.snow, \.gridScale, \.frozen, \.showers, \.hailAmount, \.runoff, \.potential] {
                self[keyPath: keyPath]?.shift(columns: columns, rows: rows, westEast: motion.westEast)
            }
        }
        placedAt = offset
        elevation = try Self.staticField(file, .terrainHeight, frame: frame.frameIndex, band: band)
        rotation = try Self.windRotation(file: file, frame: frame.frameIndex, grid: Self.grid(of: domain, at: offset, motion: motion))
    }

    /// The moving nest's own grid where it lay at `offset` on the covering grid.
    static func grid(of domain: Domain, at offset: CellOffset, motion: NestMotion) throws(IngestError) -> ProjectedGrid {
        do throws(GridGeometryError) {
            return try ProjectedGrid(parameters: domain.grid.parameters, westEast: motion.westEast, southNorth: motion.southNorth,
                                     southWestCorner: domain.grid.point(at: GridPosition(i: Double(offset.i), j: Double(offset.j))))
        } catch {
            throw .projection(path: domain.files[0].path, cause: error)
        }
    }

    /// A frame's fields laid on the covering grid: the nest's cells where it lay, missing
    /// (NaN) elsewhere; elevation is the terrain of every cell it passed over.
    private func cover(_ values: [ForecastVariable: [Float]], motion: NestMotion, at offset: CellOffset) -> [ForecastVariable: [Float]] {
        let westEast = domain.grid.westEast, total = westEast * domain.grid.southNorth
        var covered: [ForecastVariable: [Float]] = [:]
        for (variable, field) in values {
            if variable == .elevation, let coveringElevation {
                covered[variable] = coveringElevation
                continue
            }
            var laid = [Float](repeating: .nan, count: total)
            for j in 0..<motion.southNorth {
                let from = j * motion.westEast, to = (j + offset.j) * westEast + offset.i
                laid[to..<(to + motion.westEast)] = field[from..<(from + motion.westEast)]
            }
            covered[variable] = laid
        }
        return covered
    }

    /// The terrain under every cell of a moving nest's covering grid, from each frame's HGT
    /// (the first frame to reach a cell gives its value); NaN where the nest never was.
    static func coveringTerrain(_ domain: Domain, motion: NestMotion) throws(IngestError) -> [Float]? {
        let westEast = domain.grid.westEast
        var terrain = [Float](repeating: .nan, count: westEast * domain.grid.southNorth)
        let band = RowBand(domain: domain)
        for (index, frame) in domain.frames.enumerated() {
            guard let field = try staticField(domain.files[frame.fileIndex], .terrainHeight, frame: frame.frameIndex, band: band) else { return nil }
            let offset = motion.offsets[index]
            for j in 0..<motion.southNorth {
                for i in 0..<motion.westEast where terrain[(j + offset.j) * westEast + i + offset.i].isNaN {
                    terrain[(j + offset.j) * westEast + i + offset.i] = field[j * motion.westEast + i]
                }
            }
        }
        return terrain
    }

    /// What the accumulated fields of one frame give: every de-accumulator steps once, in
    /// this order, so the state after a frame is the same whether the frame was produced or
    /// skipped (`skip(to:)`).
    struct FrameAmounts {
        var precipitation: [Float]?
        var snowfall: [Float]?
        var hail: [Float]?
        var runoff: [Float]?
        var potential: [Float]?
        var rain: [Float]?
        var showers: [Float]?
    }

    /// De-accumulates one frame's accumulated fields (see `FrameAmounts`).
    private mutating func accumulate(_ raw: RawFrame, time: Int64, path: String) throws(IngestError) -> FrameAmounts {
        var amounts = FrameAmounts()
        if rain != nil {
            // Each part with its own bucket count (zeros when it has none), so resets can be
            // found per part when a count is missing.
            var parts: [[Float]] = [], counts: [[Float]] = []
            let pairs: [(RawFrame.Role, RawFrame.Role?)] = [(.rainConvective, .bucketConvective), (.rainNonConvective, .bucketNonConvective), (.rainShallow, nil)]
            for (partRole, countRole) in pairs {
                guard let part = try raw.field(partRole) else { continue }
                parts.append(part)
                counts.append(try countRole.flatMap(raw.field) ?? [Float](repeating: 0, count: cells))
            }
            amounts.precipitation = try Self.deaccumulate(&rain, parts: parts, counts: counts, report: &accumulationReport, path: path)
        }
        if snow != nil, let water = try raw.field(.snowWater) {
            amounts.snowfall = try Self.deaccumulate(&snow, parts: [water], counts: [], report: &accumulationReport, path: path).map(snowfallCentimetres(waterEquivalentMillimetres:))
        }
        // HAILNC read once for hail and rain's frozen part.
        let hailTotal = hailAmount != nil || gridScale != nil ? try raw.field(.hail) : nil
        // Resets of these are not reported: precipitation's report is the run's warning.
        if hailAmount != nil, let hail = hailTotal {
            var uncounted = DeaccumulationReport()
            amounts.hail = try Self.deaccumulate(&hailAmount, parts: [hail], counts: [], report: &uncounted, path: path)
        }
        if runoff != nil, let surface = try raw.field(.surfaceRunoff), let underground = try raw.field(.undergroundRunoff) {
            var uncounted = DeaccumulationReport()
            amounts.runoff = try Self.deaccumulate(&runoff, parts: [surface, underground], counts: [], report: &uncounted, path: path)
        }
        if potential != nil, let total = try raw.field(.potentialEvaporation) {
            var uncounted = DeaccumulationReport()
            amounts.potential = try Self.deaccumulate(&potential, parts: [total], counts: [], report: &uncounted, path: path)
        }
        if gridScale != nil, let total = try raw.field(.rainNonConvective) {
            let counts = try raw.fields([.bucketNonConvective])
            var uncounted = DeaccumulationReport()
            let grid = try Self.deaccumulate(&gridScale, parts: [total], counts: counts, report: &uncounted, path: path)
            let frozenParts = try raw.fields([.snowWater, .graupel]) + [hailTotal].compactMap { $0 }
            let ice = try Self.deaccumulate(&frozen, parts: frozenParts, counts: [], report: &uncounted, path: path)
            // RAINNC is all grid-scale precipitation; what is not snow, graupel or hail fell as rain.
            amounts.rain = zip(grid, ice).map { total, ice in total.isNaN || ice.isNaN ? .nan : max(total - ice, 0) }
        }
        if showers != nil {
            var parts: [[Float]] = [], counts: [[Float]] = []
            for (partRole, countRole) in [(RawFrame.Role.rainConvective, RawFrame.Role?.some(.bucketConvective)), (.rainShallow, nil)] {
                guard let part = try raw.field(partRole) else { continue }
                parts.append(part)
                counts.append(try countRole.flatMap(raw.field) ?? [Float](repeating: 0, count: cells))
            }
            var uncounted = DeaccumulationReport()
            amounts.showers = try Self.deaccumulate(&showers, parts: parts, counts: counts, report: &uncounted, path: path)
        }
        return amounts
    }

    /// Moves to frame `index` without producing the frames before it: only their accumulated
    /// fields are read and de-accumulated, since the amounts at `index` depend on every total
    /// before it (a drop within the tolerance keeps the higher total, so the frame before is
    /// not enough). What the skipped frames report (missing values, resets) is left to
    /// whoever produces them.
    ///
    /// - Throws: `IngestError` when an accumulated field cannot be read.
    package mutating func skip(to index: Int) throws(IngestError) {
        let report = accumulationReport
        while next < min(index, domain.frames.count) {
            let frame = domain.frames[next]
            next += 1
            let file = domain.files[frame.fileIndex]
            try follow(frame: next - 1)
            _ = try accumulate(RawFrame(file: file, frame: frame.frameIndex, band: band, missing: MissingCounter()),
                               time: frame.time, path: file.path)
        }
        accumulationReport = report
    }

    private static func deaccumulate(_ state: inout Deaccumulator?, parts: [[Float]], counts: [[Float]],
                                     report: inout DeaccumulationReport, path: String) throws(IngestError) -> [Float] {
        guard var accumulator = state, !parts.isEmpty else { return [] }
        do throws(MeteorologyError) {
            let (values, step) = try accumulator.next(parts: parts, bucketCounts: counts)
            state = accumulator
            report.resetCells += step.resetCells
            report.unknownCells += step.unknownCells
            return values
        } catch {
            throw .fieldLayout(path: path, what: "accumulated fields of one size", cause: error)
        }
    }

    /// A 2-D field without time (or frame `frame` of one with time), in the role's canonical
    /// unit, for the cells of `band`.
    static func staticField(_ file: SourceFile, _ role: SourceRole, frame: Int = 0, band: RowBand) throws(IngestError) -> [Float]? {
        try RawFrame(file: file, frame: frame, band: band, missing: MissingCounter()).field(role)
    }

    /// COSALPHA/SINALPHA per cell of `grid` (the file's grid at `frame`): from the file when it
    /// has them, otherwise from the projection at each cell's own coordinates (the cone-factor
    /// method).
    static func windRotation(file: SourceFile, frame: Int, grid: ProjectedGrid) throws(IngestError) -> (cos: [Float], sin: [Float]) {
        let cells = grid.westEast * grid.southNorth
        let whole = RowBand(rows: 0..<grid.southNorth, westEast: grid.westEast, southNorth: grid.southNorth)
        if let cos = try staticField(file, .cosAlpha, frame: frame, band: whole), let sin = try staticField(file, .sinAlpha, frame: frame, band: whole),
           cos.allSatisfy(\.isFinite), sin.allSatisfy(\.isFinite) {
            return (cos, sin)
        }
        var cos = [Float](repeating: 1, count: cells), sin = [Float](repeating: 0, count: cells)
        for j in 0..<grid.southNorth {
            for i in 0..<grid.westEast {
                let point = grid.point(at: GridPosition(i: Double(i), j: Double(j)))
                let rotation = grid.windRotation(at: point)
                cos[j * grid.westEast + i] = Float(rotation.cosAlpha)
                sin[j * grid.westEast + i] = Float(rotation.sinAlpha)
            }
        }
        return (cos, sin)
    }
}

/// Reads one frame's raw 2-D fields of a file, converted to canonical units.
struct RawFrame {
    typealias Role = SourceRole
    let file: SourceFile
    let frame: Int
    let band: RowBand
    let missing: MissingCounter
    /// The columns read in this frame, so that a 3-D field several derivations share (CLDFRA,
    /// PH and PHB, P and PB, ...) is read once, as deep as the deepest need asked first.
    let columns = ColumnCache()
    var cells: Int { band.cells }

    /// This frame's values of `variable` for the band: `levels` lowest levels of a (time, level,
    /// south_north, west_east) field, or a (time, south_north, west_east) or (south_north,
    /// west_east) one (`levels` nil). The band's rows are a hyperslab; a field off the mass
    /// grid is read whole, and `finish` then refuses its size.
    private func read(_ variable: Variable, levels: Int? = nil) throws(IngestError) -> [Float] {
        let shape = variable.shape
        let fits = band.fits(shape)
        let (r0, rows) = fits ? (band.rows.lowerBound, band.rows.count) : (0, shape.count >= 2 ? shape[shape.count - 2] : 0)
        do {
            switch shape.count {
            case 2: return try variable.readFloats(start: [r0, 0], count: [rows, shape[1]])
            case 3: return try variable.readFloats(start: [frame, r0, 0], count: [1, rows, shape[2]])
            case 4: return try variable.readFloats(start: [frame, 0, r0, 0], count: [1, levels ?? shape[1], rows, shape[3]])
            default: return try variable.readFloats()
            }
        } catch { throw IngestError.unreadable(error) }
    }

    /// The fields of those roles the file has, in order (compactMap would lose the error's type).
    func fields(_ roles: [SourceRole]) throws(IngestError) -> [[Float]] {
        var found: [[Float]] = []
        for role in roles { if let values = try field(role) { found.append(values) } }
        return found
    }

    /// The field for a role at this frame; nil when the file lacks it.
    func field(_ role: SourceRole) throws(IngestError) -> [Float]? {
        guard let variable = file.variable(role) else { return nil }
        // SourceLayout checked the dimensions: a 3-D field is (time, south_north, west_east).
        guard variable.shape.count == 2 || variable.shape.count == 3 else { return nil }
        var values = try read(variable)
        try finish(&values, variable, role, expected: cells)
        return values
    }

    /// Checks a read's size (`expected` values), converts it to the role's unit and counts its
    /// missing values for the run's warning: the tail every read of a source shares.
    private func finish(_ values: inout [Float], _ variable: Variable, _ role: SourceRole, expected: Int) throws(IngestError) {
        guard values.count == expected else {
            throw IngestError.missingMetadata(path: file.path, what: "\(variable.name) on the mass grid (found shape \(variable.shape))")
        }
        file.conversion(role).apply(&values)
        let absent = Self.countMissing(values)
        if absent > 0 { missing.add(variable.name, absent) }
    }

    /// A scalar source (a variable without dimensions, or a global attribute of that name).
    func scalar(_ role: SourceRole) throws(IngestError) -> Float? {
        for name in file.profile.names(role) {
            if file.file.hasVariable(name) {
                do {
                    guard let value = try file.file.variable(name).readFloats().first else { continue }
                    return file.conversion(role).apply(value)
                } catch { throw IngestError.unreadable(error) }
            }
            if let value = file.file.attribute(name)?.double { return file.profile.conversion(role).apply(Float(value)) }
        }
        return nil
    }

    /// Each level of a (time, level, south_north, west_east) source at this frame, top of
    /// the list first, in the role's canonical unit; nil when the file lacks it.
    func levels(_ role: SourceRole) throws(IngestError) -> [[Float]]? {
        guard let variable = file.variable(role) else { return nil }
        let shape = variable.shape
        guard shape.count == 4 else { return nil }
        var values = try read(variable, levels: shape[1])
        try finish(&values, variable, role, expected: shape[1] * cells)
        return (0..<shape[1]).map { Array(values[($0 * cells)..<(($0 + 1) * cells)]) }
    }

    /// The lowest level (index 0, WRF's bottom_top) of a (time, level, south_north, west_east)
    /// source at this frame, read as a one-level hyperslab unless `kept` already holds it; a
    /// (time, south_north, west_east) source is its own lowest level. nil when the file lacks it.
    func lowestLevel(_ role: SourceRole, reusing kept: LowestLevels) throws(IngestError) -> [Float]? {
        guard let variable = file.variable(role) else { return nil }
        let shape = variable.shape
        var values: [Float]
        if let raw = kept.fields[variable.name] {
            values = raw
        } else {
            switch shape.count {
            case 4: values = try read(variable, levels: 1)
            case 3: values = try read(variable)
            default: return nil
            }
        }
        try finish(&values, variable, role, expected: cells)
        return values
    }

    /// Visibility (m) from the lowest model level (`visibility` in Meteorology, after UPP's
    /// CALVIS_GSD); nil when a required source is missing. QGRAUP counts as zero when the
    /// file has none (its scheme has no graupel).
    func visibility(reusing kept: LowestLevels) throws(IngestError) -> [Float]? {
        guard let p = try lowestLevel(.pressurePerturbation, reusing: kept), let pb = try lowestLevel(.pressureBase, reusing: kept),
              let t = try lowestLevel(.potentialTemperaturePerturbation, reusing: kept),
              let qv = try lowestLevel(.vapourMixingRatio, reusing: kept), let qc = try lowestLevel(.cloudWaterMixingRatio, reusing: kept),
              let qr = try lowestLevel(.rainMixingRatio, reusing: kept), let qi = try lowestLevel(.iceMixingRatio, reusing: kept),
              let qs = try lowestLevel(.snowMixingRatio, reusing: kept) else { return nil }
        let qg = try lowestLevel(.graupelMixingRatio, reusing: kept)
        return (0..<cells).map { cell in
            // P + PB summed in Float, as the sea-level pressure sums them; theta = T + 300 (WRF's T0).
            Meteorology.visibility(pressure: p[cell] + pb[cell], potentialTemperature: t[cell] + 300, vapour: qv[cell],
                                   cloudWater: qc[cell], rain: qr[cell], cloudIce: qi[cell], snow: qs[cell], graupel: qg?[cell] ?? 0)
        }
    }

    /// Whether the role's variable has a level dimension (time, level, south_north, west_east).
    func hasLevels(_ role: SourceRole) -> Bool { file.variable(role)?.shape.count == 4 }

    /// Every level of a field at this frame in one flat array, level slowest, or nil without
    /// it; a field with one level per time (time, south_north, west_east) is one level. With
    /// `lowest`, only that many of its lowest levels (a hyperslab: the rest is not read).
    func column(_ role: SourceRole, lowest: Int? = nil) throws(IngestError) -> (values: [Float], levels: Int)? {
        guard let variable = file.variable(role) else { return nil }
        let shape = variable.shape
        guard shape.count == 4 || shape.count == 3 else { return nil }
        let levels = shape.count == 4 ? min(shape[1], max(lowest ?? shape[1], 1)) : 1
        if let cached = columns.prefix(role, levels: levels, cells: cells) { return (cached, levels) }
        var values = try read(variable, levels: shape.count == 4 ? levels : nil)
        try finish(&values, variable, role, expected: levels * cells)
        columns.keep(role, values: values, levels: levels)
        return (values, levels)
    }

    /// The number of levels of a (time, level, south_north, west_east) source; nil otherwise.
    func levelCount(_ role: SourceRole) -> Int? {
        guard let shape = file.variable(role)?.shape, shape.count == 4 else { return nil }
        return shape[1]
    }

    /// PH + PHB on the lowest `levels` staggered levels, summed in Float as WRF stores the
    /// split and as the sea-level pressure sums it; nil without either.
    func geopotential(lowest levels: Int) throws(IngestError) -> [Float]? {
        guard var perturbation = try column(.geopotentialPerturbation, lowest: levels),
              let base = try column(.geopotentialBase, lowest: levels) else { return nil }
        guard base.values.count == perturbation.values.count else {
            throw IngestError.missingMetadata(path: file.path, what: "PH and PHB of one shape (\(perturbation.levels) and \(base.levels) levels)")
        }
        for index in perturbation.values.indices { perturbation.values[index] += base.values[index] }
        return perturbation.values
    }

    /// Column maximum of CLDFRA in % from its column (`column(.cloudFraction)`).
    func columnMaximumCloudPercent(_ fraction: (values: [Float], levels: Int)) throws(IngestError) -> [Float] {
        do throws(MeteorologyError) {
            return try cloudCover(cloudFraction: fraction.values, levelCount: fraction.levels, cellCount: cells)
        } catch {
            throw .fieldLayout(path: file.path, what: "cloud fraction on the mass grid", cause: error)
        }
    }

    /// Low, mid and high cloud cover from flat CLDFRA and PH + PHB columns; mass levels from
    /// `heightLevels` up are high (see `cloudCoverLayers`).
    func cloudLayers(fraction: [Float], geopotential: [Float], levels: Int, heightLevels: Int?, terrainHeight: [Float]) throws(IngestError)
        -> (low: [Float], mid: [Float], high: [Float]) {
        do throws(MeteorologyError) {
            return try cloudCoverLayers(cloudFraction: fraction, geopotential: geopotential, levelCount: levels,
                                        heightLevels: heightLevels, terrainHeight: terrainHeight)
        } catch {
            throw .fieldLayout(path: file.path, what: "cloud fraction and geopotential on the mass grid", cause: error)
        }
    }
}

extension RawFrame {
    /// NaNs in a field, eight lanes at a time (the scalar loop, a compare and branch per value,
    /// cost 5-7 % of an extraction over the 3-D columns).
    static func countMissing(_ values: [Float]) -> Int {
        values.withUnsafeBufferPointer { values in
            guard let base = values.baseAddress else { return 0 }
            let raw = UnsafeRawPointer(base)
            let lanes = SIMD8<Float>.scalarCount
            var counts = SIMD8<Int32>.zero
            var index = 0
            while index + lanes <= values.count {
                let chunk = raw.loadUnaligned(fromByteOffset: index * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
                counts &+= SIMD8<Int32>.zero.replacing(with: 1, where: chunk .!= chunk)   // x != x: NaN
                index += lanes
            }
            var count = Int(counts.wrappedSum())
            while index < values.count {
                if values[index].isNaN { count += 1 }
                index += 1
            }
            return count
        }
    }
}

/// The columns one frame has read (`RawFrame.columns`), lowest levels first.
final class ColumnCache {
    private var columns: [SourceRole: (values: [Float], levels: Int)] = [:]
    /// Kept only when the levels are read (they share fields with the cloud layers): otherwise
    /// each column is read by one derivation, and holding it to the frame's end would only
    /// raise the peak (+4.6 MB on B5's run).
    var isEnabled = false

    /// The lowest `levels` levels of a column read before, when it was read that deep.
    func prefix(_ role: SourceRole, levels: Int, cells: Int) -> [Float]? {
        guard let column = columns[role], column.levels >= levels else { return nil }
        return column.levels == levels ? column.values : Array(column.values[0..<(levels * cells)])
    }

    func keep(_ role: SourceRole, values: [Float], levels: Int) {
        guard isEnabled else { return }
        if let known = columns[role], known.levels >= levels { return }
        columns[role] = (values, levels)
    }
}

/// Counts missing values per variable while one frame is read.
final class MissingCounter {
    private(set) var counts: [String: Int] = [:]
    func add(_ name: String, _ count: Int) { counts[name, default: 0] += count }
}
