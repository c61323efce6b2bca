import Catalog
import Foundation
import Meteorology
import NetCDF

/// Height and pressure levels from the model levels (docs/VARIABLES.md, "Levels"), as
/// wrf-python's `interplevel` makes them: each quantity computed on the mass levels, then
/// interpolated linearly in the vertical coordinate (height above ground, or pressure in Pa)
/// between the two mass levels around the wanted level. A level outside the column's mass
/// levels (below the lowest, about 25 m above ground: so always a pressure level below the
/// ground; or above the top) is missing, as interplevel leaves it.
///
/// Only the lowest levels are read: for the heights, up to the first mass level above the
/// highest wanted height in every cell; for the pressure levels, up to the first mass level
/// above the lowest wanted pressure. The previous frame's need plus a level of margin is read
/// first, the whole column only when that falls short (the levels move little in a frame).
struct LevelDeriver {
    /// Mass levels the heights needed at the previous frame, and the pressure levels.
    private var heightNeed: Int?
    private var pressureNeed: Int?
    /// Whether this frame reads CLDFRA's whole column anyway (cloud_cover and its layers).
    private var wholeCloudFraction = false
    /// What the first frame reads of PH and PHB before it knows (mass levels): WRF's lowest
    /// 200 m hold about 5-8 levels on the usual vertical grids.
    private static let firstHeightGuess = 12

    /// The wanted level variables of this frame, into `out`.
    mutating func derive(_ raw: RawFrame, wants: Set<ForecastVariable>, terrain: [Float]?,
                         rotation: (cos: [Float], sin: [Float]), into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        wholeCloudFraction = !wants.isDisjoint(with: [.cloudCover, .cloudCoverLow, .cloudCoverMid, .cloudCoverHigh])
        var heights: [Int: Set<LevelQuantity>] = [:], pressures: [Int: Set<LevelQuantity>] = [:]
        for variable in wants {
            guard let (quantity, level) = variable.level else { continue }
            switch level {
            case .height(let metres): heights[metres, default: []].insert(quantity)
            case .pressure(let hPa): pressures[hPa, default: []].insert(quantity)
            }
        }
        // Pressure first: it reads deeper, so the heights' reads of the same fields are prefixes.
        if !pressures.isEmpty { try derivePressureLevels(raw, pressures, rotation: rotation, into: &out) }
        if !heights.isEmpty, let terrain { try deriveHeightLevels(raw, heights, terrain: terrain, rotation: rotation, into: &out) }
    }

    // MARK: Heights above ground

    private mutating func deriveHeightLevels(_ raw: RawFrame, _ wanted: [Int: Set<LevelQuantity>], terrain: [Float],
                                             rotation: (cos: [Float], sin: [Float]), into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        guard let staggered = raw.levelCount(.geopotentialPerturbation), staggered >= 2 else { return }
        let massLevels = staggered - 1, cells = raw.cells
        let top = Float(wanted.keys.max() ?? 0)
        // Mass-level heights above ground: the mean of the staggered heights around each
        // (wrf-python's destagger of (PH + PHB)/9.81), less HGT.
        func heightsAboveGround(_ levels: Int) throws(IngestError) -> [Float]? {
            guard let sum = try raw.geopotential(lowest: levels + 1) else { return nil }
            var z = [Float](repeating: 0, count: levels * cells)
            for k in 0..<levels {
                for cell in 0..<cells {
                    z[k * cells + cell] = 0.5 * (sum[k * cells + cell] + sum[(k + 1) * cells + cell]) / Self.gravity - terrain[cell]
                }
            }
            return z
        }
        var levels = min(massLevels, heightNeed ?? Self.firstHeightGuess)
        guard var z = try heightsAboveGround(levels) else { return }
        var reach = Self.reach(z, levels: levels, cells: cells) { $0 > top }
        if reach == nil, levels < massLevels {
            levels = massLevels
            guard let whole = try heightsAboveGround(levels) else { return }
            z = whole
            reach = Self.reach(z, levels: levels, cells: cells) { $0 > top }
        }
        // Levels 0...reach hold every bracket; next frame reads one more.
        let used = min(levels, (reach ?? levels - 1) + 1)
        heightNeed = min(massLevels, used + 1)
        let wantsTemperature = wanted.values.contains { $0.contains(.temperature) }
        let wantsWind = wanted.values.contains { !$0.isDisjoint(with: [.windU, .windV]) }
        var temperature: [Float]?
        if wantsTemperature, let theta = try raw.column(.potentialTemperaturePerturbation, lowest: used),
           let p = try raw.column(.pressurePerturbation, lowest: used), let pb = try raw.column(.pressureBase, lowest: used),
           theta.levels == used, p.levels == used, pb.levels == used {
            temperature = Self.temperature(theta: theta.values, p: p.values, pb: pb.values)
        }
        var wind: (u: [Float], v: [Float])?
        if wantsWind, let u = try raw.destaggered(.windU, lowest: used), let v = try raw.destaggered(.windV, lowest: used) {
            wind = (u, v)
        }
        for (metres, quantities) in wanted {
            let brackets = Self.brackets(z, levels: used, cells: cells, at: Float(metres), increasing: true)
            let level = VerticalLevel.height(metres)
            if quantities.contains(.temperature), let temperature, let variable = ForecastVariable.at(.temperature, level) {
                out[variable] = Self.interpolate(temperature, brackets, cells: cells).map(celsius(fromKelvin:))
            }
            if let wind, let u = ForecastVariable.at(.windU, level), let v = ForecastVariable.at(.windV, level) {
                let earth = Self.earthRelative(u: Self.interpolate(wind.u, brackets, cells: cells),
                                               v: Self.interpolate(wind.v, brackets, cells: cells), rotation: rotation)
                out[u] = earth.u
                out[v] = earth.v
            }
        }
    }

    // MARK: Pressure levels

    private mutating func derivePressureLevels(_ raw: RawFrame, _ wanted: [Int: Set<LevelQuantity>],
                                               rotation: (cos: [Float], sin: [Float]), into out: inout [ForecastVariable: [Float]]) throws(IngestError) {
        guard let massLevels = raw.levelCount(.pressurePerturbation) else { return }
        let cells = raw.cells
        let lowest = Float(wanted.keys.min() ?? 0) * 100
        func pressure(_ levels: Int) throws(IngestError) -> [Float]? {
            guard let p = try raw.column(.pressurePerturbation, lowest: levels), let pb = try raw.column(.pressureBase, lowest: levels),
                  p.values.count == pb.values.count else { return nil }
            return zip(p.values, pb.values).map { $0 + $1 }
        }
        var levels = min(massLevels, pressureNeed ?? massLevels)
        guard var p = try pressure(levels) else { return }
        var reach = Self.reach(p, levels: levels, cells: cells) { $0 < lowest }
        if reach == nil, levels < massLevels {
            levels = massLevels
            guard let whole = try pressure(levels) else { return }
            p = whole
            reach = Self.reach(p, levels: levels, cells: cells) { $0 < lowest }
        }
        let used = min(levels, (reach ?? levels - 1) + 1)
        pressureNeed = min(massLevels, used + 1)
        if used < levels { p = Array(p[0..<(used * cells)]) }
        let all = wanted.values.reduce(into: Set<LevelQuantity>()) { $0.formUnion($1) }

        // The two mass levels around each wanted level, per cell; each quantity is then computed
        // only at those two levels (not on every level up to the top one: `exp`, `log` and
        // `pow` per value were a third of `--set all`'s time).
        var brackets: [Int: [(Int, Float)?]] = [:]
        for hPa in wanted.keys { brackets[hPa] = Self.brackets(p, levels: used, cells: cells, at: Float(hPa) * 100, increasing: false) }
        func store(_ quantity: LevelQuantity, _ value: (Int) -> Float) {
            for (hPa, quantities) in wanted where quantities.contains(quantity) {
                guard let around = brackets[hPa], let variable = ForecastVariable.at(quantity, .pressure(hPa)) else { continue }
                out[variable] = Self.interpolate(around, cells: cells, value)
            }
        }
        var theta: [Float]?
        if !all.isDisjoint(with: [.temperature, .relativeHumidity]),
           let column = try raw.column(.potentialTemperaturePerturbation, lowest: used), column.levels == used {
            theta = column.values
        }
        if all.contains(.temperature), let theta {
            store(.temperature) { celsius(fromKelvin: potentialToTemperature(theta: theta[$0] + 300, pressure: p[$0])) }
        }
        if !all.isDisjoint(with: [.relativeHumidity, .dewPoint]), let column = try raw.column(.vapourMixingRatio, lowest: used),
           column.levels == used {
            let qv = column.values
            if all.contains(.relativeHumidity), let theta {
                store(.relativeHumidity) {
                    relativeHumidity(mixingRatio: qv[$0], temperature: potentialToTemperature(theta: theta[$0] + 300, pressure: p[$0]), pressure: p[$0])
                }
            }
            if all.contains(.dewPoint) { store(.dewPoint) { celsius(fromKelvin: dewPoint(mixingRatio: qv[$0], pressure: p[$0])) } }
        }
        if all.contains(.geopotentialHeight), let sum = try raw.geopotential(lowest: used + 1), sum.count == (used + 1) * cells {
            store(.geopotentialHeight) { 0.5 * (sum[$0] + sum[$0 + cells]) / Self.gravity }
        }
        // The column maximum (cloud_cover) reads CLDFRA whole in the same frame: read it whole here.
        if all.contains(.cloudCover), let fraction = try raw.column(.cloudFraction, lowest: wholeCloudFraction ? nil : used),
           fraction.levels >= used {
            let values = fraction.values
            store(.cloudCover) { values[$0] * 100 }
        }
        if all.contains(.verticalVelocity), let w = try raw.column(.windW, lowest: used + 1), w.levels == used + 1 {
            let values = w.values
            store(.verticalVelocity) { 0.5 * (values[$0] + values[$0 + cells]) }
        }
        if !all.isDisjoint(with: [.windU, .windV]), let u = try raw.destaggered(.windU, lowest: used),
           let v = try raw.destaggered(.windV, lowest: used) {
            for (hPa, quantities) in wanted where !quantities.isDisjoint(with: [.windU, .windV]) {
                guard let around = brackets[hPa], let uVariable = ForecastVariable.at(.windU, .pressure(hPa)),
                      let vVariable = ForecastVariable.at(.windV, .pressure(hPa)) else { continue }
                let earth = Self.earthRelative(u: Self.interpolate(u, around, cells: cells), v: Self.interpolate(v, around, cells: cells),
                                               rotation: rotation)
                out[uVariable] = earth.u
                out[vVariable] = earth.v
            }
        }
    }

    // MARK: Arithmetic

    /// wrf-python's G.
    static let gravity: Float = 9.81

    /// Temperature (K) from perturbation potential temperature and P + PB (wrf-python tk).
    static func temperature(theta: [Float], p: [Float], pb: [Float]) -> [Float] {
        (0..<theta.count).map { potentialToTemperature(theta: theta[$0] + 300, pressure: p[$0] + pb[$0]) }
    }

    /// The highest level index any cell needs: for each cell the first level (from the bottom)
    /// where `past` holds; nil when some cell has none among the levels read.
    static func reach(_ coordinate: [Float], levels: Int, cells: Int, past: (Float) -> Bool) -> Int? {
        var highest = 0
        for cell in 0..<cells {
            guard let k = (0..<levels).first(where: { past(coordinate[$0 * cells + cell]) }) else { return nil }
            highest = max(highest, k)
        }
        return highest
    }

    /// For each cell, the lower level index and the weight of the one above for `target`, or
    /// nil when no two adjacent levels enclose it strictly (DINTERP3DZ's test: a target
    /// outside the column, or a NaN, is missing).
    static func brackets(_ coordinate: [Float], levels: Int, cells: Int, at target: Float, increasing: Bool) -> [(Int, Float)?] {
        (0..<cells).map { cell in
            for k in 0..<max(levels - 1, 0) {
                let below = coordinate[k * cells + cell], above = coordinate[(k + 1) * cells + cell]
                let inside = increasing ? (below < target && target < above) : (below > target && target > above)
                if inside { return (k, (target - below) / (above - below)) }
            }
            return nil
        }
    }

    /// `interpolate` of a quantity computed at a flat index (level x cells + cell) on demand.
    static func interpolate(_ brackets: [(Int, Float)?], cells: Int, _ value: (Int) -> Float) -> [Float] {
        (0..<cells).map { cell in
            guard let (k, w) = brackets[cell] else { return .nan }
            let lower = k * cells + cell
            return (1 - w) * value(lower) + w * value(lower + cells)
        }
    }

    static func interpolate(_ field: [Float], _ brackets: [(Int, Float)?], cells: Int) -> [Float] {
        (0..<cells).map { cell in
            guard let (k, w) = brackets[cell] else { return .nan }
            return (1 - w) * field[k * cells + cell] + w * field[(k + 1) * cells + cell]
        }
    }

    static func earthRelative(u: [Float], v: [Float], rotation: (cos: [Float], sin: [Float])) -> (u: [Float], v: [Float]) {
        var eu = u, ev = v
        for cell in u.indices {
            let wind = earthRelativeWind(u: u[cell], v: v[cell], cosAlpha: rotation.cos[cell], sinAlpha: rotation.sin[cell])
            eu[cell] = wind.u
            ev[cell] = wind.v
        }
        return (eu, ev)
    }
}

/// Temperature (K) from potential temperature (K) and pressure (Pa): wrf-python DCOMPUTETK,
/// theta x (p / 1000 hPa)^(Rd/cp) with Rd/cp = 2/7.
@inline(__always)
func potentialToTemperature(theta: Float, pressure: Float) -> Float {
    theta * pow(pressure / 100_000, 2.0 / 7.0)
}

extension RawFrame {
    /// The lowest `lowest` levels of a horizontally staggered field (U on west_east_stag, V
    /// on south_north_stag) averaged to the band's mass points, level slowest (wrf-python's
    /// destagger: the mean of the two faces around each cell); nil without the field.
    func destaggered(_ role: SourceRole, lowest: Int) throws(IngestError) -> [Float]? {
        guard let variable = file.variable(role) else { return nil }
        let shape = variable.shape
        guard shape.count == 4 else { return nil }
        let levels = min(shape[1], max(lowest, 1))
        if let cached = columns.prefix(role, levels: levels, cells: cells) { return cached }
        let rows = band.rows.count, westEast = band.westEast
        let alongX = shape[2] == band.southNorth && shape[3] == westEast + 1
        let alongY = shape[2] == band.southNorth + 1 && shape[3] == westEast
        guard alongX || alongY else {
            throw IngestError.missingMetadata(path: file.path, what: "\(variable.name) staggered once beside the mass grid (found shape \(shape))")
        }
        var raw: [Float]
        do {
            raw = try variable.readFloats(start: [frame, 0, band.rows.lowerBound, 0],
                                          count: [1, levels, alongY ? rows + 1 : rows, alongX ? westEast + 1 : westEast])
        } catch { throw IngestError.unreadable(error) }
        file.conversion(role).apply(&raw)
        let absent = Self.countMissing(raw)
        if absent > 0 { missing.add(variable.name, absent) }
        var values = [Float](repeating: 0, count: levels * cells)
        let rowLength = alongX ? westEast + 1 : westEast, levelLength = (alongY ? rows + 1 : rows) * rowLength
        for k in 0..<levels {
            for j in 0..<rows {
                for i in 0..<westEast {
                    let first = k * levelLength + j * rowLength + i
                    let second = alongX ? first + 1 : first + rowLength
                    values[k * cells + j * westEast + i] = 0.5 * (raw[first] + raw[second])
                }
            }
        }
        columns.keep(role, values: values, levels: levels)
        return values
    }
}
