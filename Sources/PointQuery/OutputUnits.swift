import Catalog
import Meteorology

/// The units a query answers in, named as the common open weather APIs name them.
public struct OutputUnits: Sendable, Equatable {
    public var temperature: TemperatureUnit = .celsius
    public var windSpeed: WindSpeedUnit = .kmh
    public var precipitation: PrecipitationUnit = .mm

    public init(temperature: TemperatureUnit = .celsius, windSpeed: WindSpeedUnit = .kmh, precipitation: PrecipitationUnit = .mm) {
        self.temperature = temperature
        self.windSpeed = windSpeed
        self.precipitation = precipitation
    }

    /// The unit symbol of a variable's values.
    public func symbol(_ variable: ForecastVariable) -> String {
        switch variable.quantity {
        case .temperature: return temperature.symbol
        case .windSpeed: return windSpeed.symbol
        case .precipitation: return precipitation.symbol
        case .snowfall: return precipitation == .inch ? "inch" : "cm"
        case .distance: return precipitation.distanceSymbol
        case .fixed: return variable.unit
        }
    }

    /// Converts a value from the store's unit to this one.
    @inline(__always)
    func convert(_ value: Float, _ variable: ForecastVariable) -> Float { convert(value, variable.quantity) }

    /// Converts a value of that quantity (a series looks its variable's quantity up once).
    @inline(__always)
    func convert(_ value: Float, _ quantity: VariableSpec.Quantity) -> Float {
        switch quantity {
        case .temperature: return temperature.convert(value)
        case .windSpeed: return windSpeed.convert(value)
        case .precipitation: return precipitation.convert(value)
        case .snowfall: return precipitation.convertSnowfall(value)
        case .distance: return precipitation.convertDistance(value)
        case .fixed: return value
        }
    }

    /// Decimals an answer prints of a variable in these units.
    package func decimals(_ variable: ForecastVariable) -> Int {
        variable.decimals(inches: precipitation == .inch)
    }
}
