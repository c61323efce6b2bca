import ArgumentParser
import Meteorology
import PointQuery

// The query's unit and format options as enums ArgumentParser parses and lists in --help
// (an unknown value is exit 2 naming the option and the choices). The types live in the
// library; only their command-line parsing is declared here.
//
// Each spells out `allValueStrings`: ArgumentParser's default for raw-value enums maps
// `allCases` through a generic key path, which the runtime instantiates by looking the types
// up by mangled name, scanning every protocol conformance in the binary, and it does so each
// time it builds the argument set (several times a parse): about 1 ms of `tilecast query`'s
// start-up (B4), measured with perf. A closure does the same without the key path.
extension TemperatureUnit: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
extension WindSpeedUnit: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
extension PrecipitationUnit: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
extension ForecastRenderer.Format: ExpressibleByArgument {
    public static var allValueStrings: [String] { allCases.map { $0.rawValue } }
}
