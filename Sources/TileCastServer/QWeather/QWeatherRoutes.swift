import Hummingbird

extension ForecastServer {
    /// QWeather's v7 paths (issue 45): registered beside `/v1/forecast`. Not yet answered.
    func addQWeatherRoutes(_ router: Router<BasicRequestContext>) {}
}
