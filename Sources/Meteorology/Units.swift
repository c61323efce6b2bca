// Unit conversions for query output, named with the words of the common open weather APIs
// (`temperature_unit=celsius|fahrenheit`, `wind_speed_unit=kmh|ms|mph|kn`,
// `precipitation_unit=mm|inch`), so a raw value can be parsed straight from a flag.
//
// Factors come from the exact definitions (international mile 1609.344 m, international
// nautical mile 1852 m, inch 25.4 mm) and are applied in Double, so round trips lose
// nothing beyond Float's own rounding.

/// Offset between the Celsius and Kelvin scales.
@inlinable package var kelvinAtZeroCelsius: Float { 273.15 }

/// K -> °C. NaN stays NaN.
@inlinable package func celsius(fromKelvin kelvin: Float) -> Float { kelvin - kelvinAtZeroCelsius }

/// °C -> K. NaN stays NaN.
@inlinable package func kelvin(fromCelsius celsius: Float) -> Float { celsius + kelvinAtZeroCelsius }

/// Pa -> hPa. NaN stays NaN.
@inlinable package func hectopascals(fromPascals pascals: Float) -> Float { pascals * 0.01 }

/// hPa -> Pa. NaN stays NaN.
@inlinable package func pascals(fromHectopascals hectopascals: Float) -> Float { hectopascals * 100 }

/// Temperature units a query can ask for; values are stored in °C.
public enum TemperatureUnit: String, CaseIterable, Sendable {
    case celsius
    case fahrenheit

    /// What to print after a number.
    public var symbol: String {
        switch self {
        case .celsius: return "°C"
        case .fahrenheit: return "°F"
        }
    }

    /// °C -> this unit.
    @inlinable
    package func convert(_ celsius: Float) -> Float {
        switch self {
        case .celsius: return celsius
        case .fahrenheit: return Float(Double(celsius) * 1.8 + 32)
        }
    }

    /// This unit -> °C.
    @inlinable
    package func celsius(from value: Float) -> Float {
        switch self {
        case .celsius: return value
        case .fahrenheit: return Float((Double(value) - 32) / 1.8)
        }
    }
}

/// Wind speed units a query can ask for; values are stored in m/s.
public enum WindSpeedUnit: String, CaseIterable, Sendable {
    case kmh
    case ms
    case mph
    case kn

    /// What to print after a number.
    public var symbol: String {
        switch self {
        case .kmh: return "km/h"
        case .ms: return "m/s"
        case .mph: return "mph"
        case .kn: return "kn"
        }
    }

    /// Metres per second in one of this unit, from the unit's exact definition.
    @inlinable
    package var metresPerSecondPerUnit: Double {
        switch self {
        case .kmh: return 1000.0 / 3600.0
        case .ms: return 1
        case .mph: return 1609.344 / 3600.0
        case .kn: return 1852.0 / 3600.0
        }
    }

    /// m/s -> this unit.
    @inlinable
    package func convert(_ metresPerSecond: Float) -> Float {
        self == .ms ? metresPerSecond : Float(Double(metresPerSecond) / metresPerSecondPerUnit)
    }

    /// This unit -> m/s.
    @inlinable
    package func metresPerSecond(from value: Float) -> Float {
        self == .ms ? value : Float(Double(value) * metresPerSecondPerUnit)
    }
}

/// Precipitation units a query can ask for; values are stored in mm.
public enum PrecipitationUnit: String, CaseIterable, Sendable {
    case mm
    case inch

    /// What to print after a number.
    public var symbol: String {
        switch self {
        case .mm: return "mm"
        case .inch: return "inch"
        }
    }

    /// mm -> this unit.
    @inlinable
    package func convert(_ millimetres: Float) -> Float {
        switch self {
        case .mm: return millimetres
        case .inch: return Float(Double(millimetres) / 25.4)
        }
    }

    /// This unit -> mm.
    @inlinable
    package func millimetres(from value: Float) -> Float {
        switch self {
        case .mm: return value
        case .inch: return Float(Double(value) * 25.4)
        }
    }

    /// A distance stored in metres (visibility, snow depth) in the length unit that goes with this
    /// precipitation unit: metres for `mm`, feet for `inch`, as Open-Meteo converts its
    /// metre-valued variables when `precipitation_unit=inch` (`SiUnit.swift`,
    /// `convertAndRound`: × 3.280839895, unit "ft").
    @inlinable
    package func convertDistance(_ metres: Float) -> Float {
        switch self {
        case .mm: return metres
        case .inch: return Float(Double(metres) * 3.280839895)
        }
    }

    /// The symbol of `convertDistance`'s unit.
    package var distanceSymbol: String { self == .inch ? "ft" : "m" }

    /// Snowfall (stored in cm) in the length unit that goes with this precipitation unit:
    /// cm for `mm`, inches for `inch`, as the open weather APIs do.
    @inlinable
    package func convertSnowfall(_ centimetres: Float) -> Float {
        switch self {
        case .mm: return centimetres
        case .inch: return Float(Double(centimetres) / 2.54)
        }
    }
}
