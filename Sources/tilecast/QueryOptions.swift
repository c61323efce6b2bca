import ArgumentParser
import Meteorology
import PointQuery

// The query's unit and format options as enums ArgumentParser parses and lists in --help
// (an unknown value is exit 2 naming the option and the choices). The types live in the
// library; only their command-line parsing is declared here.
extension TemperatureUnit: ExpressibleByArgument {}
extension WindSpeedUnit: ExpressibleByArgument {}
extension PrecipitationUnit: ExpressibleByArgument {}
extension ForecastRenderer.Format: ExpressibleByArgument {}
