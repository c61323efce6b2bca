import Foundation

// Surface-based parcel convection (issue 28): CAPE, CIN and the lifted index of a parcel lifted
// from the 2 m air, as MetPy 1.7 computes them (`metpy.calc.surface_based_cape_cin`,
// `lifted_index` with `parcel_profile`), so that a run without a CAPE field is answered with
// the community's reference numbers. Open-Meteo's GFS CAPE, CIN and lifted index are
// surface-based too (":CAPE:surface:", ":CIN:surface:", ":LFTX:surface:").
//
// The steps are MetPy's, with its constants (metpy.constants): the LCL by Romps (2017) through
// the Lambert W function; the dry adiabat T (p/p0)^(Rd/Cp) below it; the pseudo-adiabat
// dT/dp = (Rd T + Lv rs) / (Cp + Lv² rs ε / (Rd T²)) / p above it (integrated here with
// fourth-order Runge-Kutta steps in ln p of at most 0.08, within 1e-5 K of an exact solution;
// MetPy 1.7's moist_lapse is within 2e-4 K of that solution, and so of these steps); virtual
// temperatures of parcel and environment; the LFC ("bottom") and EL ("top") as MetPy finds
// them, linear in ln p; and CAPE = Rd ∫ (Tv,parcel - Tv,env) d ln p from the LFC to the EL,
// CIN the same below the LFC (at most 0), both by the trapezoid rule on the levels plus the
// LCL and the zero crossings. docs/VARIABLES.md gives the reference test's figures.

/// MetPy's constants (metpy/constants/default.py, from CODATA and the ICAO standard values).
package enum MetPyConstants {
    package static let rd = 287.04749097718457
    package static let rv = 461.52311572606084
    package static let cpd = 1004.6662184201462
    package static let cpv = 1860.078011865639
    package static let cpl = 4219.400000000001
    package static let lv = 2_500_840.0
    /// Triple point (K) and the saturation pressure there (Pa) of MetPy's saturation formula.
    package static let t0 = 273.16
    package static let es0 = 611.2
    package static let epsilon = 0.6219569100577033
    package static let kappa = 0.28571428571428564
}

private typealias C = MetPyConstants

/// Saturation vapour pressure over liquid water (Pa) at T (K): MetPy's Ambaum (2020) form with
/// a latent heat linear in temperature.

@inline(__always)
package func metpySaturationVapourPressure(_ t: Double) -> Double {
    // es0 (t0/T)^a exp((Lv/t0 - L(T)/T)/Rv), L(T) = Lv - (cpl - cpv)(T - t0), as one exponential.
    exp(FusedSaturation.k0 - FusedSaturation.a * log(t) - FusedSaturation.k1 / t)
}

/// Saturation mixing ratio (kg/kg) at p (Pa) and T (K); NaN where it is undefined (es >= p).

package func metpySaturationMixingRatio(_ p: Double, _ t: Double) -> Double {
    let es = metpySaturationVapourPressure(t)
    return es >= p ? .nan : C.epsilon * es / (p - es)
}

/// Dew point (K) from pressure (Pa) and mixing ratio (kg/kg): MetPy's `vapor_pressure` then
/// `dewpoint` (Bolton 1980's inverse, 611.2 Pa).

package func metpyDewPoint(pressure: Double, mixingRatio w: Double) -> Double {
    let e = pressure * w / (C.epsilon + w)
    let value = log(e / C.es0)
    return 273.15 + 243.5 * value / (17.67 - value)
}


func virtualTemperature(_ t: Double, mixingRatio w: Double) -> Double { t * (w + C.epsilon) / (C.epsilon * (1 + w)) }

/// The Lambert W function's lower branch W₋₁ on [-1/e, 0): Halley's iteration from the
/// branch-point or logarithmic start (Corless et al. 1996).
func lambertWLower(_ x: Double) -> Double {
    guard x >= -1 / M_E, x < 0 else { return .nan }
    var w = x < -0.25 ? -1 - (2 * (1 + M_E * x)).squareRoot() : log(-x) - log(-log(-x))
    for _ in 0..<50 {
        let ew = exp(w), f = w * ew - x
        let step = f / (ew * (w + 1) - (w + 2) * f / (2 * w + 2))
        if !step.isFinite { break }
        w -= step
        if abs(step) <= 1e-15 * max(1, abs(w)) { break }
    }
    return w
}

/// The lifting condensation level (pressure Pa, temperature K) of air at p, T, Td: Romps (2017)
/// as MetPy's `lcl` writes it.
package func metpyLCL(pressure p: Double, temperature t: Double, dewPoint td: Double) -> (pressure: Double, temperature: Double) {
    let w = metpySaturationMixingRatio(p, td)
    let q = w / (1 + w)
    let heatRatio = (C.cpd + q * (C.cpv - C.cpd)) / (C.rd + q * (C.rv - C.rd))
    let a = heatRatio + (C.cpl - C.cpv) / C.rv
    let b = -(C.lv + (C.cpl - C.cpv) * C.t0) / (C.rv * t)
    let c = b / a
    let humidity = metpySaturationVapourPressure(td) / metpySaturationVapourPressure(t)
    let lower = lambertWLower(pow(humidity, 1 / a) * c * exp(c))
    let tLCL = c / lower * t
    return (p * pow(tLCL / t, heatRatio), tLCL)
}

/// MetPy's saturation vapour pressure es0 (t0/T)^a exp((Lv/t0 - L(T)/T)/Rv) with
/// L(T) = Lv - (cpl - cpv)(T - t0) is exp(k0 - a ln T - k1/T). The moist adiabat evaluates it
/// hundreds of times a column, and a `pow` plus an `exp` cost twice a `log` plus an `exp`
/// (the parcel was about 70 % of an `--set all` extraction's samples, `pow` 31 %).
private enum FusedSaturation {
    static let a = (C.cpl - C.cpv) / C.rv
    static let k0 = log(C.es0) + a * log(C.t0) + (C.lv / C.t0 + C.cpl - C.cpv) / C.rv
    static let k1 = (C.lv + (C.cpl - C.cpv) * C.t0) / C.rv
}

/// The pseudo-adiabat's dT/d(ln p) (K) at p (Pa), T (K): MetPy's `moist_lapse` times p,
/// (Rd T + Lv rs) / (Cp + Lv² rs ε / (Rd T²)) with rs = ε es / (p - es), written over one
/// division; NaN where es >= p, as the saturation mixing ratio is.
@inline(__always)
private func moistSlope(_ p: Double, _ t: Double) -> Double {
    let es = metpySaturationVapourPressure(t)
    let d = p - es
    guard d > 0 else { return .nan }
    let rt2 = C.rd * t * t
    return rt2 * (C.rd * t * d + C.lv * C.epsilon * es) / (C.cpd * rt2 * d + C.lv * C.lv * C.epsilon * C.epsilon * es)
}

/// Temperatures (K) along the pseudo-adiabat through (`from` Pa, `temperature` K) at each of
/// `pressures` (Pa, decreasing, all below `from`): RK4 in ln p, in equal steps of at most
/// 0.08 between consecutive levels. The curve is smooth in ln p (its slope in p grows as 1/p
/// aloft), so these steps stay within 1e-5 K of an exact solution (scipy's DOP853 at 1e-12)
/// from starts between 600 and 980 hPa up to 50 hPa (about 50 steps), where steps of 10 hPa in p
/// took about 100 steps for 2e-5 K (checked with scipy and MetPy 1.7 on WRF-like eta levels).
func moistAdiabat(from start: Double, temperature: Double, to pressures: [Double]) -> [Double] {
    var p = start, t = temperature
    var out: [Double] = []
    out.reserveCapacity(pressures.count)
    for target in pressures {
        let span = log(target / p)
        let steps = max(1, Int((abs(span) / 0.08).rounded(.up)))
        let h = span / Double(steps)
        // The pressures half a step and a step on: one exp a level, then products.
        let half = exp(h / 2)
        for _ in 0..<steps {
            let middle = p * half, end = middle * half
            let k1 = moistSlope(p, t)
            let k2 = moistSlope(middle, t + h / 2 * k1)
            let k3 = moistSlope(middle, t + h / 2 * k2)
            let k4 = moistSlope(end, t + h * k3)
            t += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            p = end
        }
        p = target
        out.append(t)
    }
    return out
}

/// numpy's `isclose(a, b)` with its default tolerances.
@inline(__always)
private func isClose(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-8 + 1e-5 * abs(b) }

/// MetPy's `find_intersections` of two series over x (`ln x` used for the crossing), with the
/// sign of each crossing's change (+1: a rises above b). x and the result in the input's unit.
private func intersections(_ x: ArraySlice<Double>, _ a: ArraySlice<Double>, _ b: ArraySlice<Double>)
    -> [(x: Double, y: Double, change: Double)] {
    let xs = Array(x), av = Array(a), bv = Array(b)
    func sign(_ v: Double) -> Double { v > 0 ? 1 : (v < 0 ? -1 : 0) }
    var found: [(x: Double, y: Double, change: Double)] = []
    guard xs.count >= 2 else { return [] }
    for i in 0..<(xs.count - 1) where sign(av[i] - bv[i]) != sign(av[i + 1] - bv[i + 1]) {
        let x0 = log(xs[i]), x1 = log(xs[i + 1])
        let d0 = av[i] - bv[i], d1 = av[i + 1] - bv[i + 1]
        let ix = (d1 * x0 - d0 * x1) / (d1 - d0)
        let iy = (ix - x0) / (x1 - x0) * (av[i + 1] - av[i]) + av[i]
        found.append((exp(ix), iy, sign(d1)))
    }
    // numpy's duplicate mask: a crossing equal to the next one is dropped.
    return found.enumerated().filter { k, item in k == found.count - 1 || found[k + 1].x != item.x }.map(\.element)
}

/// Surface-based CAPE and CIN (J/kg) and the lifted index (K) of one column.
///
/// - Parameters:
///   - pressure: hPa, strictly decreasing upward, the surface (2 m) point first.
///   - temperature, dewPoint: K at those points.
/// - Returns: CAPE ≥ 0, CIN ≤ 0 (both 0 without an LFC), lifted index T500 - Tparcel500 (NaN
///   when 500 hPa is outside the column); all NaN when the column has fewer than two points.
package func surfaceBasedConvection(pressure: [Double], temperature: [Double], dewPoint: [Double])
    -> (cape: Double, cin: Double, liftedIndex: Double) {
    // MetPy drops levels with a NaN in any input.
    let kept = pressure.indices.filter { !pressure[$0].isNaN && !temperature[$0].isNaN && !dewPoint[$0].isNaN }
    let p = kept.map { pressure[$0] }, t = kept.map { temperature[$0] }, td = kept.map { dewPoint[$0] }
    guard p.count >= 2, zip(p, p.dropFirst()).allSatisfy({ $0 > $1 }) else { return (.nan, .nan, .nan) }

    // The parcel (MetPy's _parcel_profile_helper): dry below the LCL, moist from the dry
    // adiabat's temperature at the LCL's pressure.
    let lcl = metpyLCL(pressure: p[0] * 100, temperature: t[0], dewPoint: td[0])
    let lclP = lcl.pressure / 100
    let below = p.filter { $0 >= lclP }, above = p.filter { $0 < lclP }
    guard lclP.isFinite else { return (.nan, .nan, .nan) }
    // A supersaturated surface point (Q2 above saturation, in fog) puts Romps' LCL below the
    // surface. MetPy then lifts the parcel moist from (LCL, T0) through every level and drops
    // the LCL point (its environment there is an extrapolation, NaN): the same here.
    let saturated = below.isEmpty
    let dry = { (level: Double) in t[0] * pow(level / p[0], C.kappa) }
    // MetPy's early return when the column's top is at or below the LCL: a dry parcel, no LFC
    // (its lfc finds no level above the LCL), so no CAPE or CIN.
    let reachesLCL = !(p[p.count - 1] > lclP || isClose(p[p.count - 1], lclP))
    if !reachesLCL && !above.isEmpty { return (.nan, .nan, .nan) }
    let moist = reachesLCL ? moistAdiabat(from: lcl.pressure, temperature: saturated ? t[0] : dry(lclP), to: above.map { $0 * 100 }) : []
    // lifted_index: the parcel at the column's own levels (parcel_profile), T500 - Tp500 linear in p.
    let parcelAtLevels = below.map(dry) + moist
    func at500(_ values: [Double]) -> Double {
        for k in 0..<(p.count - 1) where p[k] >= 500 && p[k + 1] <= 500 {
            return values[k] + (500 - p[k]) / (p[k + 1] - p[k]) * (values[k + 1] - values[k])
        }
        return .nan
    }
    let lifted = at500(t) - at500(parcelAtLevels)
    guard reachesLCL else { return (0, 0, lifted) }

    // parcel_profile_with_lcl: the LCL inserted after every level at or below it, the
    // environment linear in p there.
    let insert = below.count
    func interpolated(_ values: [Double]) -> Double {
        values[insert - 1] + (lclP - p[insert - 1]) / (p[insert] - p[insert - 1]) * (values[insert] - values[insert - 1])
    }
    var levels = p, environment = t, dew = td, parcel = moist
    if !saturated {
        levels.insert(lclP, at: insert)
        environment.insert(interpolated(t), at: insert)
        dew.insert(interpolated(td), at: insert)
        parcel = below.map(dry) + [lcl.temperature] + moist
    }
    guard !environment.contains(where: \.isNaN), parcel.count == levels.count else { return (.nan, .nan, lifted) }

    // cape_cin: virtual temperatures, the parcel's vapour from the surface dew point below the LCL.
    let surfaceVapour = metpySaturationMixingRatio(levels[0] * 100, dew[0])
    let parcelV = levels.indices.map { k in
        virtualTemperature(parcel[k], mixingRatio: levels[k] > lclP ? surfaceVapour : metpySaturationMixingRatio(levels[k] * 100, parcel[k]))
    }
    let environmentV = levels.indices.map { k in virtualTemperature(environment[k], mixingRatio: metpySaturationMixingRatio(levels[k] * 100, dew[k])) }

    // The LFC ("bottom"), as metpy.calc.lfc finds it.
    let skip = isClose(parcelV[0], environmentV[0]) ? 1 : 0
    let rising = intersections(levels[skip...], parcelV[skip...], environmentV[skip...]).filter { $0.change > 0 }
    let parcelLCL = metpyLCL(pressure: levels[0] * 100, temperature: parcelV[0], dewPoint: dew[0]).pressure / 100
    let lfc: Double
    if rising.isEmpty {
        let aloft = levels.indices.filter { levels[$0] < parcelLCL }
        if aloft.allSatisfy({ parcelV[$0] < environmentV[$0] || isClose(parcelV[$0], environmentV[$0]) }) { return (0, 0, lifted) }
        lfc = parcelLCL
    } else if let first = rising.first(where: { $0.x < parcelLCL }) {
        lfc = first.x
    } else {
        let sinking = intersections(levels[1...], parcelV[1...], environmentV[1...]).filter { $0.change < 0 }
        if let lowest = sinking.map(\.x).min(), lowest > parcelLCL { return (0, 0, lifted) }
        lfc = parcelLCL
    }
    // The EL ("top"), as metpy.calc.el finds it; the column's top when there is none.
    var el = levels[levels.count - 1]
    if !(parcelV[parcelV.count - 1] > environmentV[environmentV.count - 1]) {
        let sinking = intersections(levels[1...], parcelV[1...], environmentV[1...]).filter { $0.change < 0 }
        let environmentLCL = metpyLCL(pressure: levels[0] * 100, temperature: environmentV[0], dewPoint: dew[0]).pressure / 100
        if let last = sinking.last, last.x < environmentLCL { el = last.x }
    }

    // The difference with its zero crossings, ascending in pressure, duplicates (1e-6 hPa) dropped.
    let difference = zip(parcelV, environmentV).map { $0 - $1 }
    let zeros = intersections(levels[1...], difference[1...], ArraySlice(repeating: 0, count: difference.count - 1))
    var points = (zip(levels, difference).map { ($0, $1) } + zeros.map { ($0.x, $0.y) }).sorted { $0.0 < $1.0 }
    points = points.enumerated().filter { k, point in k == points.count - 1 || points[k + 1].0 - point.0 > 1e-6 }.map(\.element)
    func integral(_ within: (Double) -> Bool) -> Double {
        let chosen = points.filter { within($0.0) }
        guard chosen.count >= 2 else { return 0 }
        var sum = 0.0
        for k in 1..<chosen.count { sum += (chosen[k].1 + chosen[k - 1].1) / 2 * (log(chosen[k].0) - log(chosen[k - 1].0)) }
        return C.rd * sum
    }
    let cape = integral { ($0 < lfc || isClose($0, lfc)) && ($0 > el || isClose($0, el)) }
    let cin = min(0, integral { $0 > lfc || isClose($0, lfc) })
    return (cape, cin, lifted)
}
