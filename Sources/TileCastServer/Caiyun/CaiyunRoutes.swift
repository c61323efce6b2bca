import Hummingbird

extension ForecastServer {
    /// Caiyun's v2.5 paths (issue 45): registered beside `/v1/forecast`. Not yet answered.
    func addCaiyunRoutes(_ router: Router<BasicRequestContext>) {}
}
