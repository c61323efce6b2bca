import Catalog
import GridGeometry
import NetCDF

/// Joins one domain's files into a single time axis, refusing what would give wrong numbers.
enum DomainStitcher {
    static func stitch(id: Int, files: [SourceFile], warnings: inout [IngestWarning]) throws(IngestError) -> Domain {
        guard let first = files.first else { throw IngestError.noInput(paths: []) }
        let name = domainName(id)
        let moving = files.contains { !$0.frameCorners.isEmpty }
        for file in files {
            try requireProjectionMatchesCoordinates(file)
            if let warning = projectionDriftWarning(file) { warnings.append(warning) }
            if case .inconsistent(let difference, let frames, let cells) = file.coordinates {
                warnings.append(IngestWarning(.inconsistentCoordinates,
                    "\(file.path): \(cells) cells of XLAT/XLONG differ from frame 0 by up to \(String(format: "%.4f", difference))° in frames \(frames.map(String.init).joined(separator: ",")); using frame 0 (it matches the projection to \(String(format: "%.4f", file.projectionRoundTripCells)) cells)"))
            }
            if file.timeSource != file.profile.names(.timeText).first && file.profile.convention == .wrf {
                warnings.append(IngestWarning(.timeFallback, "\(file.path): times taken from \(file.timeSource)"))
            }
            // A moving nest's files start where the nest was then: their corners are placed
            // frame by frame below.
            let sameCorner = moving || (abs(file.southWestCorner.latitude - first.southWestCorner.latitude) <= CoordinateCheck.tolerance
                && CoordinateCheck.longitudeDifference(Float(file.southWestCorner.longitude), Float(first.southWestCorner.longitude)) <= CoordinateCheck.tolerance)
            let sameGrid = file.westEast == first.westEast && file.southNorth == first.southNorth
                && file.projection == first.projection && sameCorner
            if !sameGrid {
                throw IngestError.inconsistentGrid(domain: id, paths: [first.path, file.path],
                    detail: "\(first.westEast)x\(first.southNorth) cells from \(describe(first.southWestCorner)) against \(file.westEast)x\(file.southNorth) from \(describe(file.southWestCorner))")
            }
        }

        var frames: [DomainFrame] = []
        for (fileIndex, file) in files.enumerated() {
            for (frameIndex, time) in file.times.enumerated() {
                frames.append(DomainFrame(time: time, fileIndex: fileIndex, frameIndex: frameIndex))
            }
        }
        frames.sort { ($0.time, $0.fileIndex) < ($1.time, $1.fileIndex) }
        var unique: [DomainFrame] = []
        for frame in frames {
            guard let previous = unique.last, previous.time == frame.time else {
                unique.append(frame)
                continue
            }
            let a = files[previous.fileIndex], b = files[frame.fileIndex]
            guard try sameValues(a, previous.frameIndex, b, frame.frameIndex) else {
                throw IngestError.overlappingFrames(domain: id, time: ModelTime.iso(frame.time), paths: [a.path, b.path])
            }
            warnings.append(IngestWarning(.duplicateFrames, "\(name): \(ModelTime.iso(frame.time)) is in both \(a.path) and \(b.path) with identical values; using the first"))
        }
        if let step = Domain.commonStep(unique.map(\.time)), step > 0 {
            for index in unique.indices.dropFirst() where unique[index].time - unique[index - 1].time > step {
                throw IngestError.missingFrames(domain: id, after: ModelTime.iso(unique[index - 1].time),
                                                before: ModelTime.iso(unique[index].time), step: ModelTime.duration(step))
            }
        }

        let roles = files.map { Set($0.variables.keys) }.reduce(Set(SourceRole.allCases)) { $0.intersection($1) }
        let variables = VariableAvailability(roles: roles, profile: first.profile, soilProblem: files.lazy.compactMap(\.soilLayersProblem).first)
        guard moving else {
            return Domain(id: id, files: files, frames: unique, grid: try first.grid, nest: first.nest, nestCheck: nil, variables: variables)
        }
        let (grid, motion) = try placeMovingNest(id: id, files: files, frames: unique)
        return Domain(id: id, files: files, frames: unique, grid: grid, nest: first.nest, nestCheck: nil, variables: variables, motion: motion)
    }

    /// How far a moving nest's corner may sit from a whole cell of its first position's grid:
    /// WRF moves nests by whole parent cells, so anything more is not a nest move.
    static let movingNestToleranceCells = 0.01

    /// The fixed grid covering every position a moving nest took, and where it lay at each frame.
    ///
    /// - Throws: `.movingNest` when a frame's corner is not a whole number of cells from the first
    ///   frame's (the grid did not move as WRF moves nests).
    static func placeMovingNest(id: Int, files: [SourceFile], frames: [DomainFrame]) throws(IngestError) -> (ProjectedGrid, NestMotion) {
        guard let first = files.first else { throw IngestError.noInput(paths: []) }
        let origin = try first.grid
        var offsets: [CellOffset] = []
        for frame in frames {
            let file = files[frame.fileIndex]
            let corner = file.frameCorners.isEmpty ? file.southWestCorner : file.frameCorners[frame.frameIndex]
            let position = origin.position(of: corner)
            let i = position.i.rounded(), j = position.j.rounded()
            guard abs(position.i - i) <= movingNestToleranceCells, abs(position.j - j) <= movingNestToleranceCells,
                  let whole = Int(exactly: i), let row = Int(exactly: j) else {
                let where_ = String(format: "%.3f, %.3f", position.i, position.j)
                throw IngestError.movingNest(domain: id, path: file.path, detail: "its grid at \(ModelTime.iso(frame.time)) lies \(where_) cells from the first frame's, not a whole number of cells (a nest moves by whole parent cells)")
            }
            offsets.append(CellOffset(i: whole, j: row))
        }
        let minI = offsets.map(\.i).min() ?? 0, minJ = offsets.map(\.j).min() ?? 0
        let maxI = offsets.map(\.i).max() ?? 0, maxJ = offsets.map(\.j).max() ?? 0
        let covering: ProjectedGrid
        do throws(GridGeometryError) {
            covering = try ProjectedGrid(parameters: origin.parameters, westEast: maxI - minI + first.westEast,
                                         southNorth: maxJ - minJ + first.southNorth,
                                         southWestCorner: origin.point(at: GridPosition(i: Double(minI), j: Double(minJ))))
        } catch {
            throw .projection(path: first.path, cause: error)
        }
        let motion = NestMotion(westEast: first.westEast, southNorth: first.southNorth,
                                offsets: offsets.map { CellOffset(i: $0.i - minI, j: $0.j - minJ) })
        return (covering, motion)
    }

    /// The largest distance, in cells, between a stored XLAT/XLONG of frame 0 and where the
    /// file's projection attributes put it. Real WRF and MM5 output stays below 0.001 cells
    /// (the shared samples: at most 0.0002); half a cell is where a query would start answering
    /// from the neighbouring cell, so anything beyond is attributes that contradict the grid.
    static let maximumRoundTripCells = 0.5

    /// Beyond this many cells (and up to `maximumRoundTripCells`) the attributes are published
    /// with a warning: ten times what real output shows (the shared WRF samples and every
    /// model file under SampleGrids round-trip within 0.001 cells, and none warns), below what
    /// a wrong TRUELAT moves (TRUELAT1 37 -> 30: 0.22 cells on a large grid, T2 off by up to
    /// 0.43 °C; 0.023 cells on the 9 x 7 cell edge-case baseline).
    static let warnedRoundTripCells = 0.01

    /// The warning for a file whose projection attributes place its cells off its own
    /// coordinates by more than `warnedRoundTripCells` but less than half a cell.
    static func projectionDriftWarning(_ file: SourceFile) -> IngestWarning? {
        let cells = file.projectionRoundTripCells
        guard cells.isFinite, cells > warnedRoundTripCells, cells <= maximumRoundTripCells else { return nil }
        let p = file.projection
        return IngestWarning(.inconsistentCoordinates, "\(file.path): its projection attributes put stored coordinates up to \(String(format: "%.3f", cells)) cells from its XLAT/XLONG (real WRF output: below 0.001); published on the attributes' grid: check DX/DY (\(p.dx)/\(p.dy) m) and TRUELAT1/TRUELAT2/STAND_LON (\(p.trueLatitude1)/\(p.trueLatitude2)/\(p.standardLongitude))")
    }

    /// Refuses a file whose projection attributes (DX, DY, TRUELATs, STAND_LON, MAP_PROJ)
    /// contradict its own coordinates: every query would land on the wrong cell.
    static func requireProjectionMatchesCoordinates(_ file: SourceFile) throws(IngestError) {
        let cells = file.projectionRoundTripCells
        guard !(cells <= maximumRoundTripCells) else { return }
        let p = file.projection
        let figure = cells.isFinite ? String(format: "%.2f cells", cells) : "no finite position"
        throw IngestError.badProjection(path: file.path, detail: "its coordinates (XLAT/XLONG) and its projection attributes disagree: the round trip of a stored coordinate is \(figure) (at most \(maximumRoundTripCells) accepted); likely DX/DY (\(p.dx)/\(p.dy) m) not the grid's spacing (a thinned or cropped grid with the attributes of another), or wrong TRUELAT1/TRUELAT2/STAND_LON (\(p.trueLatitude1)/\(p.trueLatitude2)/\(p.standardLongitude))")
    }

    /// Whether two frames hold the same data: every time-varying source the profile reads
    /// (a copy differing only in RAINSH or CLDFRA is not a duplicate).
    private static func sameValues(_ a: SourceFile, _ frameA: Int, _ b: SourceFile, _ frameB: Int) throws(IngestError) -> Bool {
        let skipped: Set<SourceRole> = [.latitude, .longitude, .timeText, .timeMinutes]
        for role in SourceRole.allCases where !skipped.contains(role) {
            guard let va = a.variable(role), let vb = b.variable(role), va.shape.count >= 3, va.shape.dropFirst() == vb.shape.dropFirst(),
                  va.info.dimensions.first?.name == a.timeDimension else { continue }
            let count = [1] + Array(va.shape.dropFirst())
            let zeros = [Int](repeating: 0, count: va.shape.count - 1)
            do {
                let x = try va.readFloats(start: [frameA] + zeros, count: count)
                let y = try vb.readFloats(start: [frameB] + zeros, count: count)
                if !zip(x, y).allSatisfy({ $0.bitPattern == $1.bitPattern }) { return false }
            } catch {
                throw IngestError.unreadable(error)
            }
        }
        return true
    }
}

/// Checks each nest against its parent: the attributes' placement against the coordinates.
enum NestChecker {
    /// A nest whose coordinates sit further than this from its attributes' placement is reported.
    static let toleranceCells = 0.05

    static func check(_ domains: [Domain], warnings: inout [IngestWarning]) throws(IngestError) -> [Domain] {
        try requireOneProjection(domains)
        return domains.map { domain in
            guard let nest = domain.nest, let parent = domains.first(where: { $0.id == nest.parentID }) else { return domain }
            // A moving nest's attributes give its first position.
            let corner = domain.motion == nil ? domain.grid.southWestCorner
                : domain.files[0].frameCorners.first ?? domain.files[0].southWestCorner
            let measured = parent.grid.position(of: corner)
            let check = NestCheck(expected: nest.parentPositionOfOrigin, measured: measured,
                                  spacingRatio: parent.spacing / domain.spacing)
            if check.offsetCells > toleranceCells || abs(check.spacingRatio - Double(nest.ratio)) > 0.01 {
                let f = { (value: Double) in String(format: "%.3f", value) }
                warnings.append(IngestWarning(.nestMismatch,
                    "\(domain.name) (\(domain.files[0].path)): nest attributes (I_PARENT_START \(nest.iParentStart), J_PARENT_START \(nest.jParentStart), ratio \(nest.ratio)) put it at \(parent.name) position (\(f(check.expected.i)), \(f(check.expected.j))) but its coordinates put it at (\(f(measured.i)), \(f(measured.j))), \(f(check.offsetCells)) cells away (spacing ratio \(f(check.spacingRatio))); queries use its own coordinates"))
            }
            return Domain(id: domain.id, files: domain.files, frames: domain.frames, grid: domain.grid, nest: domain.nest,
                          nestCheck: check, variables: domain.variables, motion: domain.motion)
        }
    }
}

extension NestChecker {
    /// Every domain of a run is on the coarsest domain's map projection (WRF requires it: a
    /// nest differs only in DX/DY and position); a nest whose MAP_PROJ, TRUELATs, STAND_LON or
    /// pole differ was written by another run or edited, and cannot be placed in its parent.
    static func requireOneProjection(_ domains: [Domain]) throws(IngestError) {
        guard let first = domains.first else { return }
        let reference = first.projection
        for domain in domains.dropFirst() {
            let p = domain.projection
            var differences: [String] = []
            if p.kind != reference.kind { differences.append("MAP_PROJ \(p.kind.rawValue) against \(reference.kind.rawValue)") }
            let angles: [(String, Double, Double)] = [
                ("TRUELAT1", p.trueLatitude1, reference.trueLatitude1), ("TRUELAT2", p.trueLatitude2, reference.trueLatitude2),
                ("STAND_LON", p.standardLongitude, reference.standardLongitude),
                ("POLE_LAT", p.poleLatitude, reference.poleLatitude), ("POLE_LON", p.poleLongitude, reference.poleLongitude),
            ]
            for (name, value, expected) in angles where !(abs(value - expected) <= 1e-4) {
                differences.append("\(name) \(value) against \(expected)")
            }
            guard differences.isEmpty else {
                throw IngestError.badProjection(path: domain.files[0].path, detail: "\(domain.name) is not on \(first.name)'s map projection (\(differences.joined(separator: ", ")) in \(first.files[0].path)); all domains of a run share one projection")
            }
        }
    }
}

/// "36.2528N 9.1083W": a corner for messages.
func describe(_ point: GeoPoint) -> String {
    String(format: "%.4f", abs(point.latitude)) + (point.latitude < 0 ? "S " : "N ")
        + String(format: "%.4f", abs(point.longitude)) + (point.longitude < 0 ? "W" : "E")
}
