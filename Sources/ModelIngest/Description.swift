import Catalog
import Foundation
import GridGeometry

/// What `tilecast inspect` says about a file or a run: Codable for `--format json`, and
/// rendered as aligned text for people.
public struct RunDescription: Codable, Sendable {
    public struct DomainDescription: Codable, Sendable {
        public var domain: String
        public var parent: String?
        public var parentGridRatio: Int?
        public var parentStart: [Int]?
        /// Attribute placement against coordinates, in parent cells (nil without the parent).
        public var nestOffsetCells: Double?
        public var projection: String
        package var projectionParameters: ProjectionParameters
        public var westEast: Int
        public var southNorth: Int
        public var spacingKilometres: Double
        package var southWestCorner: GeoPoint
        public var latitudeRange: [Double]
        public var longitudeRange: [Double]
        public var frames: Int
        public var firstTime: String
        public var lastTime: String
        public var step: String?
        public var timeSource: String
        public var coordinates: String
        /// A moving nest's centre at each frame ("2005-08-28T12:00Z 24.04N 89.28W"); nil when
        /// the grid stays put.
        public var track: [String]?
        public var projectionRoundTripCells: Double
        public var files: [String]
        public var formats: [String]
        /// What `extract` stores by default (the surface set) where the run provides it.
        public var provides: [String]
        /// What each extraction set (`extract --set`) would hold of this run.
        public var sets: [String: [String]]
        /// How pressure_msl is made (nil when it is not provided).
        public var seaLevelPressure: String?
        /// The surface set's variables the run cannot provide, with the field each lacks.
        public var missing: [String: String]
        /// The same for the variables only the `all` set holds (the levels).
        public var missingFromAll: [String: String]
        /// Whether `extract` can use this domain, in words: "extractable", or why not
        /// ("static: no times, cannot be extracted alone").
        public var status: String
        /// What wrote the file: "model output", or "geo_em", "met_em", "wrfinput" (not extracted).
        public var fileKind: String
        /// A fast stream of the domain ("auxhist2": its 15-minute output), stored beside its
        /// history; nil for the history.
        public var stream: String?
    }

    public var model: String
    public var profile: String
    public var simulationStart: String?
    /// The restart segment's start (START_DATE) when the files begin with a restart: the other
    /// cycle `extract --cycle` may file them under.
    public var restartStart: String?
    public var cycle: String
    public var domains: [DomainDescription]
    public var warnings: [String]

    /// Describes each model's run found in the inputs; a set of WPS or real.exe files (geo_em,
    /// met_em, wrfinput: never extracted) is described as its domains and nest tree.
    public static func describeRuns(paths: [String], profile: ModelProfile?) throws(IngestError) -> [RunDescription] {
        do {
            return try ModelRun.readRuns(paths: paths, profile: profile).map(RunDescription.init(run:))
        } catch {
            guard let statics = try? RunDescription(staticFiles: paths, profile: profile) else { throw error }
            return [statics]
        }
    }

    /// Describes a set of files that are not model output (WPS geo_em without times, met_em,
    /// real.exe's wrfinput), each domain from its own files, nests placed by their attributes
    /// and checked against their parent's coordinates.
    ///
    /// - Throws: when a file cannot be read or when one of them is model output.
    package init(staticFiles paths: [String], profile chosenProfile: ModelProfile?) throws(IngestError) {
        var files: [SourceFile] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw IngestError.noInput(paths: [path]) }
            let members = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
                    .map { (path as NSString).appendingPathComponent($0) }
                : [path]
            for member in members {
                // In a folder, what is not a model's netCDF file (notes, CDL text) is passed over.
                let detected: ModelProfile?
                if let chosenProfile {
                    detected = chosenProfile
                } else if isDirectory.boolValue {
                    detected = try? ModelRun.detectProfile(member)
                } else {
                    detected = try ModelRun.detectProfile(member)
                }
                guard let chosen = detected else { continue }
                files.append(try SourceFile(path: member, profile: chosen, allowStatic: true))
            }
        }
        guard let first = files.first, files.allSatisfy({ $0.isStatic || $0.kind != .modelOutput }) else {
            throw IngestError.noInput(paths: paths)
        }
        model = first.title
        profile = first.profile.name
        simulationStart = files.compactMap(\.simulationStart).min().map(ModelTime.iso)
        cycle = "none (not model output)"
        warnings = []
        let grids = try Dictionary(files.map { file throws(IngestError) in (file.domainID, try file.grid) }, uniquingKeysWith: { a, _ in a })
        // A domain's files (met_em.d01 at several times) are described together.
        domains = try Set(files.map(\.domainID)).sorted().map { id throws(IngestError) in
            let members = files.filter { $0.domainID == id }
            let file = members[0], grid = try file.grid
            let check = file.nest.flatMap { nest in grids[nest.parentID].map { parent in
                NestCheck(expected: nest.parentPositionOfOrigin, measured: parent.position(of: grid.southWestCorner),
                          spacingRatio: parent.parameters.dx / grid.parameters.dx)
            } }
            return Self.describe(files: members, id: id, grid: grid, times: members.flatMap(\.times).sorted(), nest: file.nest,
                                 nestCheck: check,
                                 availability: VariableAvailability(roles: Set(file.variables.keys), profile: file.profile, soilProblem: file.soilLayersProblem))
        }
    }

    /// Describes a checked run.
    public init(run: ModelRun) {
        model = run.title
        profile = run.profileName
        simulationStart = run.simulationStart.map(ModelTime.iso)
        restartStart = run.restartStart.map(ModelTime.iso)
        cycle = ModelTime.isoMinutes(run.defaultCycle)
        warnings = run.warnings.map(\.message)
        domains = run.domains.map { domain in
            Self.describe(files: domain.files, id: domain.id, grid: domain.grid, times: domain.times,
                          nest: domain.nest, nestCheck: domain.nestCheck, availability: domain.variables)
        }
        domains += run.fastStreams.map { stream in
            var description = Self.describe(files: stream.files, id: stream.id, grid: stream.grid, times: stream.times,
                                            nest: stream.nest, nestCheck: nil, availability: stream.variables)
            description.stream = stream.stream
            return description
        }
    }

    /// Describes one file on its own, whatever state it is in (a moving nest included).
    package init(file: SourceFile) throws(IngestError) {
        model = file.title
        profile = file.profile.name
        simulationStart = file.simulationStart.map(ModelTime.iso)
        if let segment = file.segmentStart, let start = file.simulationStart, segment > start { restartStart = ModelTime.iso(segment) }
        cycle = file.kind == .modelOutput ? ModelTime.isoMinutes(file.simulationStart ?? file.times.first ?? 0) : "none (not model output)"
        warnings = []
        let availability = VariableAvailability(roles: Set(file.variables.keys), profile: file.profile, soilProblem: file.soilLayersProblem)
        domains = [Self.describe(files: [file], id: file.domainID, grid: try file.grid, times: file.times,
                                 nest: file.nest, nestCheck: nil, availability: availability)]
    }

    private static func describe(files: [SourceFile], id: Int, grid: ProjectedGrid, times: [Int64], nest: NestPlacement?,
                                 nestCheck: NestCheck?, availability: VariableAvailability) -> DomainDescription {
        let corners = grid.corners
        let latitudes = corners.map(\.latitude), longitudes = corners.map(\.longitude)
        let coordinates: String
        switch files.map(\.coordinates).first(where: { $0 != .fixed }) ?? .fixed {
        case .fixed: coordinates = "fixed"
        case .moving(let shift, let frame):
            coordinates = "moving: the grid's south-west corner moves \(String(format: "%.4f", shift))° by frame \(frame); stored on the grid covering its track"
        case .inconsistent(let difference, let frames, let cells):
            coordinates = "inconsistent: \(cells) cells differ from frame 0 by up to \(String(format: "%.4f", difference))° in frames \(frames.map(String.init).joined(separator: ",")); frame 0 is used"
        }
        var description = DomainDescription(
            domain: domainName(id),
            parent: nest.map { domainName($0.parentID) },
            parentGridRatio: nest?.ratio,
            parentStart: nest.map { [$0.iParentStart, $0.jParentStart] },
            nestOffsetCells: nestCheck?.offsetCells,
            projection: projectionName(grid.parameters),
            projectionParameters: grid.parameters,
            westEast: grid.westEast, southNorth: grid.southNorth,
            spacingKilometres: grid.parameters.dx / 1000,
            southWestCorner: grid.southWestCorner,
            latitudeRange: [latitudes.min() ?? 0, latitudes.max() ?? 0],
            longitudeRange: [longitudes.min() ?? 0, longitudes.max() ?? 0],
            frames: times.count,
            firstTime: times.first.map(ModelTime.iso) ?? "-",
            lastTime: times.last.map(ModelTime.iso) ?? "-",
            step: Domain.commonStep(times).map(ModelTime.duration),
            timeSource: Array(Set(files.map(\.timeSource))).sorted().joined(separator: "; "),
            coordinates: coordinates,
            projectionRoundTripCells: files.map(\.projectionRoundTripCells).max() ?? 0,
            files: files.map(\.path),
            formats: Array(Set(files.map(\.format.rawValue))).sorted(),
            provides: availability.provided(by: .surface).map(\.rawValue),
            sets: Dictionary(uniqueKeysWithValues: ExtractionSet.allCases.map { set in
                (set.rawValue, availability.provided(by: set).map(\.rawValue))
            }),
            seaLevelPressure: availability.available.contains(.pressureMSL) ? seaLevelMethod(files[0], band: RowBand(rows: 0..<grid.southNorth, westEast: grid.westEast, southNorth: grid.southNorth)).rawValue : nil,
            missing: Dictionary(uniqueKeysWithValues: availability.missing.filter { $0.0.belongs(to: .surface) }.map { ($0.0.rawValue, $0.1) }),
            missingFromAll: Dictionary(uniqueKeysWithValues: availability.missing.filter { !$0.0.belongs(to: .surface) }.map { ($0.0.rawValue, $0.1) }),
            status: status(files: files, availability: availability),
            fileKind: files.first?.kind.rawValue ?? FileKind.modelOutput.rawValue)
        description.track = track(files)
        return description
    }

    /// A moving nest's centre per frame, in time order; nil when no file's grid moves.
    private static func track(_ files: [SourceFile]) -> [String]? {
        guard files.contains(where: { !$0.frameCorners.isEmpty }) else { return nil }
        var positions: [(time: Int64, centre: GeoPoint)] = []
        for file in files {
            let corners = file.frameCorners.isEmpty ? Array(repeating: file.southWestCorner, count: file.times.count) : file.frameCorners
            for (time, corner) in zip(file.times, corners) {
                guard let grid = try? ProjectedGrid(parameters: file.projection, westEast: file.westEast, southNorth: file.southNorth,
                                                    southWestCorner: corner) else { continue }
                positions.append((time, grid.point(at: GridPosition(i: Double(file.westEast - 1) / 2, j: Double(file.southNorth - 1) / 2))))
            }
        }
        return positions.sorted { $0.time < $1.time }.map { ModelTime.isoMinutes($0.time) + " " + ModelIngest.describe($0.centre) }
    }

    /// Whether extraction can use these files, and if not, why (in the terms a user acts on).
    private static func status(files: [SourceFile], availability: VariableAvailability) -> String {
        if files.contains(where: \.isStatic) {
            return "static: no times, cannot be extracted alone (a WPS file describes the domain; extract the run's wrfout files)"
        }
        // Their one time is an analysis, not a forecast frame: named for what they are.
        switch files.first?.kind {
        case .metgrid?:
            return "WPS metgrid input (for real.exe): not model output, cannot be extracted (extract the run's wrfout files)"
        case .initialConditions?:
            return "real.exe initial conditions (one time, no forecast): cannot be extracted (extract the run's wrfout files)"
        case .geogrid?:
            return "WPS geogrid file: not model output, cannot be extracted (extract the run's wrfout files)"
        case .modelOutput?, nil:
            break
        }
        if let problem = files.lazy.compactMap(\.timeProblem).first {
            return "cannot be extracted: its times are unusable (\(problem))"
        }
        if let worst = files.map(\.projectionRoundTripCells).max(), worst > DomainStitcher.maximumRoundTripCells {
            return "cannot be extracted: the projection attributes contradict the coordinates"
        }
        if availability.available.allSatisfy(\.isStatic) {
            return "cannot be extracted: no forecast variable can be made from this file"
        }
        if case .moving? = files.map(\.coordinates).first(where: { $0 != .fixed }) {
            return "extractable (a moving nest: stored on the grid covering its track, answered where it was)"
        }
        return "extractable"
    }

    /// How pressure_msl is made from this file.
    static func seaLevelMethod(_ file: SourceFile, band: RowBand) -> SeaLevelMethod {
        if file.variables[.seaLevelPressure] != nil { return .stored }
        return SeaLevelColumns(file: file, band: band) == nil ? .surfaceReduction : .modelLevels
    }

    static func projectionName(_ parameters: ProjectionParameters) -> String {
        let p = parameters
        func degrees(_ value: Double) -> String { String(format: "%g", value) }
        switch p.kind {
        case .lambertConformal:
            return p.trueLatitude1 == p.trueLatitude2
                ? "Lambert conformal (tangent), TRUELAT \(degrees(p.trueLatitude1)), STAND_LON \(degrees(p.standardLongitude))"
                : "Lambert conformal, TRUELAT1 \(degrees(p.trueLatitude1)), TRUELAT2 \(degrees(p.trueLatitude2)), STAND_LON \(degrees(p.standardLongitude))"
        case .polarStereographic:
            return "polar stereographic (\(p.trueLatitude1 < 0 ? "south" : "north")), TRUELAT1 \(degrees(p.trueLatitude1)), STAND_LON \(degrees(p.standardLongitude))"
        case .mercator:
            return "Mercator, TRUELAT1 \(degrees(p.trueLatitude1))"
        case .latLon:
            return p.isRotatedPole
                ? "rotated-pole lat-lon, POLE_LAT \(degrees(p.poleLatitude)), POLE_LON \(degrees(p.poleLongitude)), STAND_LON \(degrees(p.standardLongitude))"
                : "regular lat-lon"
        }
    }

    /// The readable form: one block per domain, labels aligned.
    public var text: String {
        var lines: [String] = []
        func row(_ label: String, _ value: String) { lines.append(label.padding(toLength: 15, withPad: " ", startingAt: 0) + value) }
        row("Model", "\(model) (profile \(profile))")
        row("Cycle", cycle + (simulationStart.map { " (simulation start \($0))" } ?? "")
            + (restartStart.map { "; a restart segment from \($0) (--cycle may name either)" } ?? ""))
        for domain in domains {
            lines.append("")
            var title = domain.domain
            if let stream = domain.stream {
                title += ": its \(stream) stream, stored beside its history (answers `--every 15` and minutely_15)"
            } else if let parent = domain.parent, let ratio = domain.parentGridRatio, let start = domain.parentStart {
                title += ": nest of \(parent), ratio \(ratio), parent start i=\(start[0]) j=\(start[1])"
                if let offset = domain.nestOffsetCells { title += String(format: " (placement checked: %.3f parent cells)", offset) }
            }
            lines.append(title)
            row("  Files", domain.files.count == 1 ? domain.files[0] : "\(domain.files.count) files, first \(domain.files[0])")
            row("  Format", domain.formats.joined(separator: ", "))
            row("  Projection", domain.projection)
            row("  Grid", "\(domain.westEast) x \(domain.southNorth) mass points (west_east x south_north), \(String(format: "%g", domain.spacingKilometres)) km")
            row("  Extent", String(format: "lat %.3f .. %.3f, lon %.3f .. %.3f", domain.latitudeRange[0], domain.latitudeRange[1], domain.longitudeRange[0], domain.longitudeRange[1]))
            if domain.frames == 0 {
                row("  Times", domain.timeSource)
            } else if domain.fileKind != FileKind.modelOutput.rawValue {
                let valid = domain.frames == 1 ? domain.firstTime : "\(domain.frames) times, \(domain.firstTime) .. \(domain.lastTime)"
                row("  Valid at", "\(valid) (from \(domain.timeSource); \(domain.fileKind): not a forecast frame)")
            } else {
                row("  Times", "\(domain.frames) frames, \(domain.firstTime) .. \(domain.lastTime)" + (domain.step.map { ", every \($0)" } ?? "") + " (from \(domain.timeSource))")
            }
            let refused = domain.projectionRoundTripCells <= DomainStitcher.maximumRoundTripCells ? ""
                : " (over the \(DomainStitcher.maximumRoundTripCells)-cell limit: the attributes contradict the coordinates; extract refuses this file)"
            row("  Coordinates", domain.coordinates + String(format: "; projection round trip %.4f cells", domain.projectionRoundTripCells) + refused)
            if let track = domain.track { row("  Track", "centre " + track.joined(separator: ", ")) }
            // A file that is not extracted provides nothing: its fields are what it holds.
            row(domain.fileKind == FileKind.modelOutput.rawValue ? "  Provides" : "  Holds", domain.provides.joined(separator: ", "))
            if domain.fileKind == FileKind.modelOutput.rawValue, domain.frames > 0 {
                // What `extract --set all` adds to the default set, and what it cannot.
                let surface = Set(domain.sets[ExtractionSet.surface.rawValue] ?? [])
                let added = (domain.sets[ExtractionSet.all.rawValue] ?? []).filter { !surface.contains($0) }
                row("  Set surface", "the default: the \(surface.count) variables above")
                row("  Set all", added.isEmpty ? "adds nothing (no level can be made)" : "adds \(added.count): " + added.joined(separator: ", "))
                if !domain.missingFromAll.isEmpty {
                    // Grouped by the field they lack: a run without U lacks 40 names for one reason.
                    let byReason = Dictionary(grouping: domain.missingFromAll, by: \.value)
                    row("  All lacks", byReason.keys.sorted().map { reason in
                        (byReason[reason] ?? []).map(\.key).sorted().joined(separator: ", ") + " (\(reason))"
                    }.joined(separator: "; "))
                }
            }
            if let method = domain.seaLevelPressure { row("  Sea level", "pressure_msl from " + method) }
            // A static file lacks every forecast source by nature: listing them says nothing.
            if !domain.missing.isEmpty && domain.frames > 0 && domain.fileKind == FileKind.modelOutput.rawValue {
                row("  Missing", domain.missing.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", "))
            }
            row("  Status", domain.status)
        }
        if !warnings.isEmpty {
            lines.append("")
            lines += warnings.map { "warning: " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
