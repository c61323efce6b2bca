import Meteorology
import NetCDF

/// How a domain's pressure_msl is made, named in `inspect` (docs/VARIABLES.md describes each).
package enum SeaLevelMethod: String, Sendable {
    /// The file's own sea-level pressure (MM5's psealvlc).
    case stored = "the file's own sea-level pressure"
    /// wrf-python's slp from the lowest model levels.
    case modelLevels = "lowest model levels (P, PB, T, QVAPOR, PH, PHB), as wrf-python's slp"
    /// The WMO reduction of PSFC with T2 and HGT: files without the 3-D fields.
    case surfaceReduction = "PSFC reduced with T2 and HGT (WMO; the file has no 3-D fields)"
}

/// Reads the few lowest model levels a WRF file needs for wrf-python's sea-level pressure,
/// with hyperslabs: P and PB up to the level 100 hPa above the ground (16 levels first, then
/// the previous frame's need and two levels; the whole column only if some cell needs more), then T, QVAPOR, PH and PHB only up to the
/// highest level any cell uses. WRF names, since P + PB, T + 300 and PH + PHB are WRF's own
/// split of its state; MM5 files never have them.
struct SeaLevelColumns {
    static let names = ["P", "PB", "T", "QVAPOR", "PH", "PHB"]
    /// Levels of P and PB read first; 100 hPa above the ground lies far below this in any
    /// WRF vertical grid we know (level 8-9 of 27 in the real allvars sample).
    static let firstSearchLevels = 16

    let file: SourceFile
    let band: RowBand
    var cells: Int { band.cells }
    /// Mass levels (bottom_top).
    let levels: Int

    /// nil when the file lacks any of the six fields or their layout is not WRF's
    /// (Time, bottom_top, south_north, west_east) on the band's grid, PH/PHB with one more
    /// (staggered) level.
    init?(file: SourceFile, band: RowBand) {
        guard file.profile.convention == .wrf else { return nil }
        var shapes: [String: [Int]] = [:]
        for name in Self.names {
            guard file.file.hasVariable(name), let variable = try? file.file.variable(name) else { return nil }
            shapes[name] = variable.shape
        }
        guard let mass = shapes["P"], mass.count == 4, band.fits(mass), mass[1] >= 3 else { return nil }
        for name in ["PB", "T", "QVAPOR"] where shapes[name] != mass { return nil }
        let staggered = [mass[0], mass[1] + 1, mass[2], mass[3]]
        for name in ["PH", "PHB"] where shapes[name] != staggered { return nil }
        self.file = file
        self.band = band
        levels = mass[1]
    }

    /// Sea-level pressure (Pa) at one frame; NaN where a cell's column has no level 100 hPa
    /// above the ground. The lowest level of each field read is left in `kept`, so that
    /// visibility, which needs the lowest level of P, PB, T and QVAPOR, does not read them again.
    /// `geopotential`: PH + PHB at every staggered level when the caller already read them (the
    /// cloud layers do); its lowest levels are then used instead of reading them again.
    /// `searchLevels`: the levels of P and PB to read first (nil: `firstSearchLevels`); left at
    /// enough levels for this frame's deepest search level and one deeper, the next frame's
    /// first guess (nil when a column had none).
    func seaLevelPressure(frame: Int, keeping kept: LowestLevels? = nil, geopotential whole: [Float]? = nil,
                          searchLevels hint: inout Int?) throws(IngestError) -> [Float] {
        let readKeeping = { (name: String, levels: Int) throws(IngestError) -> [Float] in
            let values = try read(name, frame: frame, levels: levels)
            kept?.fields[name] = Array(values[0..<min(self.cells, values.count)])
            return values
        }
        func sum(_ a: String, _ b: String, frame: Int, levels: Int) throws(IngestError) -> [Float] {
            var total = try readKeeping(a, levels)
            let base = try readKeeping(b, levels)
            for k in total.indices { total[k] += base[k] }
            return total
        }
        // Perturbation plus base state (P + PB, PH + PHB), summed in Float as WRF stores them.
        var searched = min(max(hint ?? Self.firstSearchLevels, 1), levels)
        var pressure = try sum("P", "PB", frame: frame, levels: searched)
        var search = wrfSeaLevelSearchLevels(pressure: pressure, levels: searched, cells: cells)
        if search.contains(-1) && searched < levels {
            searched = levels
            pressure = try sum("P", "PB", frame: frame, levels: searched)
            search = wrfSeaLevelSearchLevels(pressure: pressure, levels: searched, cells: cells)
        }
        // Level k is found with levels 0...k read; one more for a deepening column.
        hint = search.contains(-1) ? nil : (search.max() ?? 0) + 2
        let upper = search.filter { $0 >= 0 }.map { wrfSeaLevelUpperLevel(searchLevel: $0, totalLevels: levels) }.max() ?? 0
        let used = upper + 1
        var theta = try readKeeping("T", used)
        for k in theta.indices { theta[k] += 300 }
        let vapour = try readKeeping("QVAPOR", used)
        let geopotential: [Float]
        if let whole, whole.count >= (used + 1) * cells {
            geopotential = Array(whole[0..<((used + 1) * cells)])
        } else {
            geopotential = try sum("PH", "PHB", frame: frame, levels: used + 1)
        }
        return wrfSeaLevelPressure(pressure: pressure, potentialTemperature: theta, mixingRatio: vapour,
                                   geopotential: geopotential, levels: used, totalLevels: levels, cells: cells,
                                   searchLevels: search)
    }

    /// The lowest `levels` levels of a 4-D field at one frame, level-major.
    private func read(_ name: String, frame: Int, levels: Int) throws(IngestError) -> [Float] {
        do {
            let variable = try file.file.variable(name)
            let shape = variable.shape
            return try variable.readFloats(start: [frame, 0, band.rows.lowerBound, 0], count: [1, levels, band.rows.count, shape[3]])
        } catch {
            throw IngestError.unreadable(error)
        }
    }
}

/// The lowest model level of 3-D fields already read for one frame, raw as in the file,
/// by variable name (`SeaLevelColumns` leaves them; `RawFrame.lowestLevel` takes them).
final class LowestLevels {
    var fields: [String: [Float]] = [:]
}
