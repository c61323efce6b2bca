import Foundation
import GridGeometry
import NetCDF

/// Where a nest sits in its parent, as WRF's global attributes say.
package struct NestPlacement: Sendable, Equatable, Codable {
    package let parentID: Int
    package let ratio: Int
    /// 1-based parent staggered indices of the nest's first staggered point (WRF convention).
    package let iParentStart: Int
    package let jParentStart: Int

    /// The 0-based parent mass-grid position of the nest's mass point [0,0]: the nest's
    /// first staggered point is the parent's staggered point `iParentStart`, which lies half a
    /// parent cell before parent mass point `iParentStart - 1`, and the nest's first mass point
    /// lies half a nest cell after that.
    package var parentPositionOfOrigin: GridPosition {
        let half = 0.5 / Double(ratio)
        return GridPosition(i: Double(iParentStart) - 1.5 + half, j: Double(jParentStart) - 1.5 + half)
    }
}

/// Which program wrote a WRF-family file, from its TITLE. Only the model's history output holds
/// a forecast; geogrid, metgrid and real.exe write the same grid with the same attributes, and
/// metgrid's and real.exe's files even carry a real date in Times, so the title is what tells a
/// met_em or a wrfinput from a one-frame wrfout.
package enum FileKind: String, Sendable, Codable {
    case modelOutput = "model output"
    case geogrid = "geo_em"
    case metgrid = "met_em"
    case initialConditions = "wrfinput"

    /// geogrid writes "OUTPUT FROM GEOGRID V4.x", metgrid "OUTPUT FROM METGRID V4.x", real.exe
    /// (wrfinput, and wrfbdy/wrflowinp/wrffdda) " OUTPUT FROM REAL_EM V4.x PREPROCESSOR";
    /// wrf.exe " OUTPUT FROM WRF V4.x MODEL". Anything else is taken for model output.
    init(title: String) {
        let title = title.uppercased()
        if title.contains("FROM METGRID") {
            self = .metgrid
        } else if title.contains("FROM GEOGRID") {
            self = .geogrid
        } else if title.contains("REAL_EM") || title.contains("PREPROCESSOR") {
            self = .initialConditions
        } else {
            self = .modelOutput
        }
    }

    /// What the file is, in the words of a refusal or of `inspect`.
    var what: String {
        switch self {
        case .modelOutput: return "model output"
        case .geogrid: return "a WPS geogrid file (geo_em: static fields of the domain, no Times)"
        case .metgrid: return "WPS metgrid input for real.exe (met_em: the driving analysis interpolated to the grid at one time)"
        case .initialConditions: return "real.exe's initial conditions (wrfinput: the state at the start, one time, no forecast)"
        }
    }
}

/// How the file's coordinates behave over its frames.
package enum CoordinateBehaviour: Sendable, Equatable {
    /// The same in every frame (or stored without a time dimension).
    case fixed
    /// The grid moves: its south-west corner differs between frames.
    case moving(maxShiftDegrees: Double, frame: Int)
    /// The corner stays but some cells change between frames: a damaged or inconsistent file.
    case inconsistent(maxDifferenceDegrees: Double, frames: [Int], cells: Int)
}

/// One input file, described once: its domain, times, grid and which sources it holds.
package struct SourceFile: Sendable {
    package let path: String
    let file: NetCDFFile
    package let profile: ModelProfile
    package let format: NetCDFFormat
    package let title: String
    package let domainID: Int
    package let nest: NestPlacement?
    package let projection: ProjectionParameters
    package let westEast: Int
    package let southNorth: Int
    /// XLAT/XLONG at [0,0] of the first frame: where the grid is anchored.
    package let southWestCorner: GeoPoint
    package let coordinates: CoordinateBehaviour
    /// Each frame's south-west corner in a moving nest (empty when the grid stays put).
    package let frameCorners: [GeoPoint]
    /// Worst distance, in cells, between a stored coordinate of frame 0 and where the
    /// projection puts it.
    package let projectionRoundTripCells: Double
    package let times: [Int64]
    /// Where the times came from ("Times", or "XTIME" and why).
    package let timeSource: String
    package let simulationStart: Int64?
    /// WRF's START_DATE: the start of this file's segment of the simulation, later than
    /// `simulationStart` in a restart segment.
    package let segmentStart: Int64?
    /// Why the file's time axis cannot be used, when `inspect` describes it anyway.
    package let timeProblem: String?
    /// WRF's BUCKET_MM (nil or <= 0 when buckets are off).
    package let bucketMM: Double?
    /// The variable found for each role this file can provide.
    package let variables: [SourceRole: String]
    /// Each role's conversion to its canonical unit (from the file's `units`, else the profile).
    let conversions: [SourceRole: UnitConversion]
    /// The dimension names actually used by this file.
    let timeDimension: String
    let southNorthDimension: String
    let westEastDimension: String

    package var grid: ProjectedGrid {
        get throws(IngestError) {
            do throws(GridGeometryError) {
                return try ProjectedGrid(parameters: projection, westEast: westEast, southNorth: southNorth,
                                         southWestCorner: southWestCorner)
            } catch {
                throw .projection(path: path, cause: error)
            }
        }
    }

    /// Whether the file has no time axis at all (a WPS geo_em file): it describes a domain but
    /// holds no forecast, so it is described by `inspect` and never extracted.
    package let isStatic: Bool
    /// Which program wrote the file; `extract` reads only `.modelOutput`.
    package let kind: FileKind
    /// Why TSLB/SMOIS are not used (not on Noah's four layers), for `inspect`; nil otherwise.
    package let soilLayersProblem: String?

    /// Reads a file's description.
    ///
    /// - Parameter allowStatic: describe a file that is not model output (geo_em without times,
    ///   met_em, wrfinput) instead of refusing it; only `inspect` asks for this.
    /// - Throws: `IngestError` naming the file: `.unreadable` (libnetcdf), `.missingMetadata`,
    ///   `.badLayout`, `.badUnits`, `.badTimes`, `.badProjection`, `.tooLarge`; `.notModelOutput`
    ///   for a WPS or real.exe file unless `allowStatic`.
    package init(path: String, profile: ModelProfile, allowStatic: Bool = false) throws(IngestError) {
        let file: NetCDFFile
        do { file = try NetCDFFile(path: path) } catch { throw IngestError.unreadable(error) }
        try self.init(file: file, profile: profile, allowStatic: allowStatic)
    }

    /// The same for a file already open (the run reader opens each file once: libnetcdf reads
    /// and parses a WRF file's ~1 MB header at every open).
    package init(file: NetCDFFile, profile: ModelProfile, allowStatic: Bool = false) throws(IngestError) {
        let path = file.path
        // Decided before anything else, so that a met_em or wrfinput is refused for what it is
        // rather than for a layout detail of its fields.
        kind = profile.convention == .wrf ? FileKind(title: file.attribute("TITLE")?.string ?? "") : .modelOutput
        if kind != .modelOutput && !allowStatic { throw IngestError.notModelOutput(path: path, what: kind.what) }
        self.path = path
        self.file = file
        self.profile = profile
        format = file.format
        var found = Self.variablesByRole(in: file, profile: profile)
        soilLayersProblem = Self.dropSoilOnOtherLayers(&found, in: file)
        Self.dropGeopotentialWithoutCloudLevels(&found, in: file)
        variables = found
        let grid = try GridDimensions(file: file, profile: profile)
        southNorthDimension = grid.southNorthName
        westEastDimension = grid.westEastName
        timeDimension = grid.timeName
        southNorth = grid.southNorth
        westEast = grid.westEast

        try Self.requireFitsInMemory(path: path, westEast: westEast, southNorth: southNorth,
                                     levels: Self.cloudLevels(file, found[.cloudFraction]))
        let layout = SourceLayout(path: path, timeDimension: file.dimension(timeDimension) == nil ? nil : timeDimension,
                                  southNorth: grid.southNorthName, westEast: grid.westEastName)
        conversions = try Self.unitConversions(of: found, in: file, layout: layout, profile: profile)

        let metadata = try DomainMetadata(file: file, profile: profile)
        title = metadata.title
        domainID = metadata.domainID
        nest = metadata.nest
        projection = metadata.projection
        bucketMM = metadata.bucketMM
        simulationStart = metadata.simulationStart
        segmentStart = metadata.segmentStart

        let axis = try FileTimes(file: file, profile: profile, variables: found, timeDimension: timeDimension, metadata: metadata,
                                 minutes: conversions[.timeMinutes] ?? profile.conversion(.timeMinutes), kind: kind, allowStatic: allowStatic)
        times = axis.times
        timeSource = axis.source
        isStatic = axis.isStatic
        timeProblem = axis.problem

        let check = try CoordinateCheck(file: file, variables: found, westEast: westEast, southNorth: southNorth,
                                        projection: projection)
        southWestCorner = check.southWestCorner
        coordinates = check.behaviour
        frameCorners = check.frameCorners
        projectionRoundTripCells = check.roundTripCells
    }

    /// The first of the profile's names for each role that the file has.
    private static func variablesByRole(in file: NetCDFFile, profile: ModelProfile) -> [SourceRole: String] {
        var found: [SourceRole: String] = [:]
        for role in SourceRole.allCases {
            if let name = profile.names(role).first(where: file.hasVariable) { found[role] = name }
        }
        return found
    }

    /// Soil fields on other layers than Noah's are left out (their names would lie).
    ///
    /// - Returns: why they were left out, for `inspect`; nil when they are kept or absent.
    private static func dropSoilOnOtherLayers(_ found: inout [SourceRole: String], in file: NetCDFFile) -> String? {
        guard found[.soilTemperature] != nil || found[.soilMoisture] != nil || found[.relativeSoilMoisture] != nil,
              let why = SoilLayers.problem(file: file, variables: found) else { return nil }
        found[.soilTemperature] = nil
        found[.soilMoisture] = nil
        found[.relativeSoilMoisture] = nil
        return why
    }

    /// Cloud layers need PH/PHB on one more (staggered) level than CLDFRA's mass levels;
    /// without that, PH/PHB are left out.
    private static func dropGeopotentialWithoutCloudLevels(_ found: inout [SourceRole: String], in file: NetCDFFile) {
        guard let ph = found[.geopotentialPerturbation], let phb = found[.geopotentialBase], let cloud = found[.cloudFraction] else { return }
        let shape = { (name: String) in (try? file.variable(name))?.shape ?? [] }
        let cf = shape(cloud), staggered = shape(ph)
        if cf.count != 4 || staggered.count != 4 || staggered[1] != cf[1] + 1 || shape(phb) != staggered {
            found[.geopotentialPerturbation] = nil
            found[.geopotentialBase] = nil
        }
    }

    /// Checks each role's variable against the layout its role needs, and finds its conversion
    /// to the canonical unit (the time text has none).
    private static func unitConversions(of found: [SourceRole: String], in file: NetCDFFile, layout: SourceLayout,
                                        profile: ModelProfile) throws(IngestError) -> [SourceRole: UnitConversion] {
        var conversions: [SourceRole: UnitConversion] = [:]
        for (role, name) in found {
            let variable: Variable
            do { variable = try file.variable(name) } catch { throw IngestError.unreadable(error) }
            try layout.check(variable, as: role)
            if role != .timeText { conversions[role] = try layout.conversion(variable, as: role, profile: profile) }
        }
        return conversions
    }

    /// Float fields of one grid's size that ingest may hold at once for a domain: a frame's
    /// raw sources, derived variables, de-accumulation state and wind rotation (about 40),
    /// with room to spare.
    static let fieldsPerCell = 64

    /// Refuses a grid whose working set (`fieldsPerCell` fields plus a frame of cloud
    /// levels, 4 bytes a value) exceeds half the machine's memory. A header may declare any
    /// size; refusing here turns an abort on allocation into exit 3.
    static func requireFitsInMemory(path: String, westEast: Int, southNorth: Int, levels: Int) throws(IngestError) {
        let budget = Double(ProcessInfo.processInfo.physicalMemory) / 2
        let bytes = Double(westEast) * Double(southNorth) * Double(4 * (fieldsPerCell + levels))
        guard bytes > budget else { return }
        let gib = { (value: Double) in String(format: "%.0f", value / Double(1 << 30)) }
        throw IngestError.tooLarge(path: path, detail: "a grid of \(westEast) x \(southNorth) cells needs about \(gib(bytes)) GiB to ingest; at most half the memory (\(gib(budget)) GiB here) is used")
    }

    /// The number of CLDFRA levels read per frame (0 without CLDFRA).
    private static func cloudLevels(_ file: NetCDFFile, _ name: String?) -> Int {
        guard let name, let variable = try? file.variable(name) else { return 0 }
        return variable.shape.count == 4 ? variable.shape[1] : 1
    }

    /// The pressure at the model top (Pa) assumed when an MM5 file gives p* but no ptop:
    /// MM5's most common setting.
    static let assumedModelTopPressure: Float = 10_000

    /// Whether surface pressure must come from p* + ptop, and the file states no ptop (as a
    /// variable or a global attribute), so `assumedModelTopPressure` is used.
    var assumesModelTop: Bool {
        variables[.surfacePressure] == nil && variables[.pstar] != nil
            && !profile.names(.modelTopPressure).contains { file.hasVariable($0) || file.attribute($0) != nil }
    }

    /// The conversion of a role's values to its canonical unit.
    func conversion(_ role: SourceRole) -> UnitConversion { conversions[role] ?? profile.conversion(role) }

    /// The variable for a role, bound for reading; nil when the file lacks it.
    func variable(_ role: SourceRole) -> Variable? {
        guard let name = variables[role] else { return nil }
        return try? file.variable(name)
    }
}

/// The names and lengths of a file's grid dimensions: the first of the profile's names for
/// each that the file has.
private struct GridDimensions {
    let southNorthName: String
    let westEastName: String
    /// The profile's time dimension, or "Time" when the file has none of its names.
    let timeName: String
    let southNorth: Int
    let westEast: Int

    /// - Throws: `IngestError.missingMetadata` when a grid dimension is missing or empty.
    init(file: NetCDFFile, profile: ModelProfile) throws(IngestError) {
        let dimensionName = { (role: DimensionRole) -> String? in
            (profile.dimensions[role] ?? []).first { file.dimension($0) != nil }
        }
        guard let sn = dimensionName(.southNorth), let we = dimensionName(.westEast) else {
            throw IngestError.missingMetadata(path: file.path, what: "grid dimensions (expected one of \((profile.dimensions[.southNorth] ?? []) + (profile.dimensions[.westEast] ?? [])))")
        }
        southNorthName = sn
        westEastName = we
        timeName = dimensionName(.time) ?? "Time"
        southNorth = file.dimension(sn)?.length ?? 0
        westEast = file.dimension(we)?.length ?? 0
        guard southNorth > 0, westEast > 0 else {
            throw IngestError.missingMetadata(path: file.path, what: "a non-empty grid (\(sn) = \(southNorth), \(we) = \(westEast))")
        }
    }
}

/// A file's time axis, checked against its run's start (`TimeAxis`); for `inspect`
/// (`allowStatic`), a file without a usable one gets no times and says why.
private struct FileTimes {
    let times: [Int64]
    let source: String
    let isStatic: Bool
    let problem: String?

    /// - Throws: `IngestError.badTimes` unless `allowStatic`, and the other errors of `TimeAxis`.
    init(file: NetCDFFile, profile: ModelProfile, variables found: [SourceRole: String], timeDimension: String,
         metadata: DomainMetadata, minutes: UnitConversion, kind: FileKind, allowStatic: Bool) throws(IngestError) {
        do {
            let axis = try TimeAxis(file: file, profile: profile, variables: found, timeDimension: timeDimension,
                                    simulationStart: metadata.simulationStart, segmentStart: metadata.segmentStart,
                                    minutes: minutes)
            try TimeAxis.requireWithinRun(axis.times, simulationStart: metadata.simulationStart, segmentStart: metadata.segmentStart,
                                          path: file.path, source: axis.source)
            times = axis.times
            source = axis.source
            isStatic = false
            problem = nil
        } catch IngestError.badTimes(_, let detail) where allowStatic {
            times = []
            source = "none (\(detail))"
            // Static only when there is no time axis to speak of (WPS's geo_em: no XTIME and a
            // placeholder Times); model output whose times are damaged is described as such.
            isStatic = kind == .geogrid || (found[.timeText] == nil && found[.timeMinutes] == nil)
            problem = detail
        }
    }
}
